/// What a handler answers: status, header fields and body, sent as HEADERS (+ DATA).
///
/// The server adds `content-length` (any given one is replaced) and lowercases header
/// names. A response it cannot send as given is a handler bug and goes out as 500 with an
/// empty body instead: a status outside 200...599, or a field HTTP/2 forbids (a
/// pseudo-header, `connection`, `transfer-encoding` and the other connection-specific
/// fields, a name or value with characters HTTP does not allow).
package struct HTTP2Response: Sendable {
    package var status: Int
    package var headers: HTTP2Headers
    package var body: [UInt8]
    /// After this response has gone out, send GOAWAY on its connection: the client may
    /// open no new stream there, the streams already open finish, then the connection
    /// closes. For fault injection ("the next push gets a 503 and a GOAWAY").
    package var goAway: HTTP2GoAway?
    /// The request proved the client (APNs: a valid provider token): its connection's
    /// stream limit rises from `HTTP2ServerConfig.maxConcurrentStreamsUntilTrusted` to
    /// `http2.maxConcurrentStreams`, announced in a SETTINGS frame sent before this
    /// response. Once per connection; nothing without that setting.
    package var trustsConnection: Bool

    package init(
        status: Int, headers: HTTP2Headers = [], body: [UInt8] = [], goAway: HTTP2GoAway? = nil,
        trustsConnection: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.goAway = goAway
        self.trustsConnection = trustsConnection
    }
}

/// A GOAWAY frame to send (RFC 9113 §6.8). Its last-stream-id is the last stream the
/// server took, so every stream already open still gets its answer.
package struct HTTP2GoAway: Sendable, Hashable {
    /// The HTTP/2 error code (RFC 9113 §7); 0 is NO_ERROR.
    package var errorCode: UInt32
    /// Opaque bytes for the peer's logs (APNs puts `{"reason": …}` here).
    package var debugData: [UInt8]

    package init(errorCode: UInt32 = 0, debugData: [UInt8] = []) {
        self.errorCode = errorCode
        self.debugData = debugData
    }
}
