package import RPCNIO

/// Settings of an `HTTP2Server`. Start from `.defaults`.
package struct HTTP2ServerConfig: Sendable {
    /// HTTP/2 settings and the receive budget, shared with the gRPC transport. What
    /// applies here: `maxConcurrentStreams`, `initialStreamWindowSize`,
    /// `maxHeaderListSize` (a larger request header block is answered 431) with
    /// `headerFloodFactor`, and `receiveBudget` with `connectionWindowSize`: the request
    /// body bytes one connection may make the server hold, enforced through the
    /// connection's flow-control window, which gets credit back only once a request's
    /// response is out (or its stream is gone). Bytes past `maxRequestBody` are never held.
    /// (The message and watermark settings are the gRPC transport's only.)
    package var http2: HTTP2Config
    /// Request bodies longer than this are not buffered: the handler gets the request
    /// at once with `bodyTooLarge` (APNs: 4096 bytes, 5120 for broadcast and VoIP).
    package var maxRequestBody: Int
    package var keepalive: KeepaliveConfig?
    package var resetRateLimit: ResetRateLimit
    /// How long graceful shutdown waits for the PING that follows its GOAWAY notice
    /// before sending the final GOAWAY anyway.
    package var shutdownPingTimeout: Duration
    /// The SETTINGS_MAX_CONCURRENT_STREAMS a connection starts with, until a response
    /// trusts it (`HTTP2Response.trustsConnection`): then a new SETTINGS raises it to
    /// `http2.maxConcurrentStreams`. APNs with token authentication allows one stream
    /// until a valid provider token has been posted. nil: `http2.maxConcurrentStreams`
    /// from the start.
    package var maxConcurrentStreamsUntilTrusted: Int?
    /// Where the server reports what it did about peers (GOAWAYs, idle connections closed,
    /// TLS handshakes timed out, failed accepts); nil: nowhere.
    package var events: ConnectionEventSink?
    /// A connection with no stream open for this long gets GOAWAY and closes (a push
    /// server reconnects when it next pushes); nil: never.
    package var idleTimeout: Duration? = NIOServerConfig.defaultIdleTimeout
    /// A TLS connection whose handshake has not completed this long after it was accepted
    /// is closed: a client that connects and says nothing holds no socket for long.
    package var tlsHandshakeTimeout: Duration = .seconds(10)

    package init(
        http2: HTTP2Config = Self.defaultHTTP2, maxRequestBody: Int = 8 * 1024,
        keepalive: KeepaliveConfig? = .serverDefaults, resetRateLimit: ResetRateLimit = .defaults,
        shutdownPingTimeout: Duration = .seconds(1), maxConcurrentStreamsUntilTrusted: Int? = nil
    ) {
        self.http2 = http2
        self.maxRequestBody = maxRequestBody
        self.keepalive = keepalive
        self.resetRateLimit = resetRateLimit
        self.shutdownPingTimeout = shutdownPingTimeout
        self.maxConcurrentStreamsUntilTrusted = maxConcurrentStreamsUntilTrusted
    }

    package static var defaults: Self { Self() }

    /// Up to 1,000 streams a connection (what APNs allows once a provider is trusted),
    /// small stream windows (bodies are small), and 1 MiB of bodies held per connection.
    package static var defaultHTTP2: HTTP2Config {
        HTTP2Config(maxConcurrentStreams: 1000, initialStreamWindowSize: 64 * 1024, receiveBudget: 1 << 20)
    }
}
