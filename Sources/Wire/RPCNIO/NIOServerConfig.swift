public import RPCCore
public import Web
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
    /// A connection with no call open for this long is closed: HTTP/2 with GOAWAY (gRPC's
    /// `max_connection_idle`; clients reconnect when they next call), HTTP/1.1 between
    /// requests, and one that never said anything. A call open, however quiet (a watch, an
    /// event stream), keeps it. nil: never.
    public var idleTimeout: Duration? = NIOServerConfig.defaultIdleTimeout
    /// The `"details"` of a JSON error body, from the call's trailers (a google.rpc.Status in
    /// `grpc-status-details-bin` rendered as a JSON array); nil, or a nil answer: no details.
    /// The transport does not know the messages; a service kit that does sets this.
    public var errorDetailsJSON: (@Sendable (Metadata) -> [UInt8]?)?
    /// HTTP/2 calls start on the event loop that read them, where a handler that does not
    /// suspend answers without leaving the loop (see `LoopCallStarter`). A read burst's
    /// calls that ran there longer than this (a handler computing before it suspends holds
    /// up every connection of its loop) send the next 256 calls off the loops. nil: every
    /// call starts off the loops.
    public var eventLoopCallLimit: Duration? = .microseconds(200)

    /// Five minutes: long enough that a client between bursts of calls keeps its
    /// connection, short enough that silent ones do not pile up.
    public static let defaultIdleTimeout: Duration = .seconds(300)

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
