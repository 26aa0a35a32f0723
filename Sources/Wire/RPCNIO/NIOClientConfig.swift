/// Settings of the HTTP/2 client transport. Start from `.defaults`.
public struct NIOClientConfig: Sendable {
    public var http2: HTTP2Config
    /// Larger response messages fail the call with RESOURCE_EXHAUSTED.
    public var maxReceiveMessageSize: Int
    /// Client keepalive is off by default, as in grpc.
    public var keepalive: KeepaliveConfig?
    public var connectTimeout: Duration
    /// Sent as `user-agent`.
    public var userAgent: String

    public init(
        http2: HTTP2Config = .defaults, maxReceiveMessageSize: Int = 4 * 1024 * 1024,
        keepalive: KeepaliveConfig? = nil, connectTimeout: Duration = .seconds(10),
        userAgent: String = "grpc-swift-glimpse/0.1"
    ) {
        self.http2 = http2
        self.maxReceiveMessageSize = maxReceiveMessageSize
        self.keepalive = keepalive
        self.connectTimeout = connectTimeout
        self.userAgent = userAgent
    }

    public static var defaults: Self { Self() }
}
