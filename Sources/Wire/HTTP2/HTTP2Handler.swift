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
