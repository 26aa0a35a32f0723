import NIOCore
import NIOPosix

/// Settings of the HTTP/2 server transport. Start from `.defaults`.
public struct NIOServerConfig: Sendable {
    public var http2: HTTP2Config
    /// Larger request messages are answered with RESOURCE_EXHAUSTED. It may exceed
    /// `http2.receiveBudget`: a message still arriving is credited beyond the budget while
    /// its handler waits for it (see `HTTP2Config.receiveBudget`).
    public var maxReceiveMessageSize: Int
    public var keepalive: KeepaliveConfig?
    public var resetRateLimit: ResetRateLimit
    /// How long to wait for the PING that follows the shutdown notice before sending the
    /// final GOAWAY anyway.
    public var shutdownPingTimeout: Duration
    /// What a browser gets on HTTP/1.1 beside the JSON routes (static files, GET of the
    /// JSON methods, server-sent events); nil: JSON by POST only. See `WebConfig`.
    public var web: WebConfig?
    /// Where the transport reports what it did about peers (GOAWAYs, idle connections
    /// closed, failed accepts); nil: nowhere.
    public var events: ConnectionEventSink?

    public init(
        http2: HTTP2Config = .defaults, maxReceiveMessageSize: Int = 4 * 1024 * 1024,
        keepalive: KeepaliveConfig? = .serverDefaults, resetRateLimit: ResetRateLimit = .defaults,
        shutdownPingTimeout: Duration = .seconds(1), web: WebConfig? = nil
    ) {
        self.http2 = http2
        self.maxReceiveMessageSize = maxReceiveMessageSize
        self.keepalive = keepalive
        self.resetRateLimit = resetRateLimit
        self.shutdownPingTimeout = shutdownPingTimeout
        self.web = web
    }

    public static var defaults: Self { Self() }
}
