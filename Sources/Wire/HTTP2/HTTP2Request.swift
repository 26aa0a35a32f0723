package import NIOCore

/// One request stream, complete: what the handler is called with.
package struct HTTP2Request: Sendable {
    /// `:method`, e.g. `POST`.
    package var method: String
    /// `:path`, with the query if any (empty for CONNECT).
    package var path: String
    /// `:authority`, when the client sent one.
    package var authority: String?
    /// `:scheme` (`http` or `https` as the client wrote it; empty for CONNECT).
    package var scheme: String
    /// The regular header fields, in the order received (names lowercase).
    package var headers: HTTP2Headers
    /// The request body: all of it, or when `bodyTooLarge`, only its first
    /// `HTTP2ServerConfig.maxRequestBody` bytes (or none, if the size was announced).
    package var body: [UInt8]
    /// The body is longer than `HTTP2ServerConfig.maxRequestBody`: the server stopped
    /// buffering it and called the handler at once (usually to answer 413); the rest of
    /// the body is read and dropped, and the stream is reset after the response if the
    /// client is still sending.
    package var bodyTooLarge: Bool
    /// The connection the request came on.
    package var connection: HTTP2ConnectionInfo
    /// The HTTP/2 stream id (for logs).
    package var streamID: Int32

    package init(
        method: String, path: String, authority: String? = nil, scheme: String = "https",
        headers: HTTP2Headers = [], body: [UInt8] = [], bodyTooLarge: Bool = false,
        connection: HTTP2ConnectionInfo, streamID: Int32 = 1
    ) {
        self.method = method
        self.path = path
        self.authority = authority
        self.scheme = scheme
        self.headers = headers
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.connection = connection
        self.streamID = streamID
    }
}

/// What the handler knows of the connection a request came on. Per-connection state
/// (APNs binds a connection to one team on its first push) is keyed by `id`;
/// `HTTP2Handler.connectionClosed` says when to drop it.
package struct HTTP2ConnectionInfo: Sendable, Hashable {
    /// Unique among the connections of one server for its lifetime.
    package var id: UInt64
    /// The client's address, when the socket had one.
    package var peer: SocketAddress?
    /// True on a TLS listener (once the handshake is done, nothing else reaches a handler).
    package var isTLS: Bool
    /// The protocol ALPN settled on (`h2`), or nil: cleartext, or a TLS client that
    /// offered no ALPN (the connection speaks HTTP/2 all the same).
    package var alpn: String?

    package init(id: UInt64, peer: SocketAddress? = nil, isTLS: Bool = false, alpn: String? = nil) {
        self.id = id
        self.peer = peer
        self.isTLS = isTLS
        self.alpn = alpn
    }
}
