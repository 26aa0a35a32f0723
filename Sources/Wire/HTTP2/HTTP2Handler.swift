/// Answers requests. Called once per request stream, when its body is complete (or as
/// soon as it is known to be too large), concurrently across streams and connections,
/// off the event loops.
package protocol HTTP2Handler: Sendable {
    /// The response for `request`. A thrown error is answered 500 with an empty body. If
    /// the stream is gone by the time the response is ready (the client reset it, the
    /// connection closed), the response is dropped.
    func handle(_ request: HTTP2Request) async throws -> HTTP2Response

    /// The connection is closed: no request of it will be handled after this (handlers
    /// of its requests may still be running). Called on the connection's event loop: do
    /// no more than drop per-connection state. Does nothing by default.
    func connectionClosed(_ connection: HTTP2ConnectionInfo)
}

extension HTTP2Handler {
    package func connectionClosed(_ connection: HTTP2ConnectionInfo) {}
}

/// A handler that takes, at once, the requests the server's connections completed since it
/// last looked, so that work shared between them (one store commit for many) is done once.
/// The server then runs one task per group instead of one per request; `handle(_:)` still
/// answers a request alone where one comes without the others (tests, other callers).
package protocol HTTP2BatchHandler: HTTP2Handler {
    /// Answers every request of `requests` once, through `answer` (its index in `requests`
    /// and its response), as soon as each is ready and in any order. A request left
    /// unanswered when this returns is answered 500 with an empty body.
    func handle(batch requests: [HTTP2Request], answer: @escaping @Sendable (Int, HTTP2Response) -> Void) async
}

/// A handler made of one closure.
package struct HTTP2ClosureHandler: HTTP2Handler {
    private let body: @Sendable (HTTP2Request) async throws -> HTTP2Response

    package init(_ body: @escaping @Sendable (HTTP2Request) async throws -> HTTP2Response) {
        self.body = body
    }

    package func handle(_ request: HTTP2Request) async throws -> HTTP2Response {
        try await body(request)
    }
}
