import RPCCore

/// The HTTP/2 settings an endpoint advertises and enforces.
public struct HTTP2Config: Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS we allow the peer to open.
    public var maxConcurrentStreams: Int
    /// SETTINGS_INITIAL_WINDOW_SIZE: how much a peer may send on one stream before we read.
    public var initialStreamWindowSize: Int
    /// The connection-level receive window (raised with a WINDOW_UPDATE on stream 0). On
    /// a server connection `receiveBudget` caps it.
    public var connectionWindowSize: Int
    /// SETTINGS_MAX_HEADER_LIST_SIZE, enforced by us on every header block.
    public var maxHeaderListSize: Int
    /// A header block this many times over the limit is a flood: the connection is closed
    /// with GOAWAY(ENHANCE_YOUR_CALM) instead of answering the one stream.
    public var headerFloodFactor: Int
    /// Bytes of complete, unread messages a stream may hold before its WINDOW_UPDATEs wait
    /// for the call to read them (bytes of a message still arriving are always released to
    /// the stream's window, so a message larger than that window can arrive; the
    /// connection's window follows `receiveBudget`).
    public var eagerReleaseAllowance: Int
    /// Server connections: request bytes one connection may make the server hold, that
    /// is, received and not yet taken by the calls' handlers (messages queued for a handler
    /// and messages still arriving), whatever the number of streams. Enforced through HTTP/2
    /// flow control: it is the connection's receive window (the smaller of this and
    /// `connectionWindowSize`, and never below HTTP/2's initial 65,535), and that window is
    /// credited back only for bytes the server no longer holds. Once it is used up the
    /// client can send no more DATA on the connection until handlers read.
    ///
    /// With the message size limit (`NIOServerConfig.maxReceiveMessageSize`), which may be
    /// larger: the bytes of a message still arriving on a stream whose handler is waiting
    /// for its next message are credited as they arrive, beyond the budget, so a handler
    /// that reads always gets its message, however large. A connection thus holds at most
    /// the budget plus, for each handler waiting for a message, that one message; a handler
    /// that does not read makes its client's bytes count against the budget only.
    public var receiveBudget: Int
    /// A writer waits when more than this is queued on its stream, until it is back under
    /// `outboundLowWatermark`.
    public var outboundHighWatermark: Int
    public var outboundLowWatermark: Int
    /// Server connections: response bytes one connection may hold queued, all its streams
    /// together (see `OutboundBudget`): a writer waits for room before its message is
    /// queued, so a client that reads nothing costs the server at most this per connection,
    /// however many streams it opens.
    public var connectionOutboundLimit: Int

    public init(
        maxConcurrentStreams: Int = 100, initialStreamWindowSize: Int = 1 << 20,
        connectionWindowSize: Int = 16 << 20, maxHeaderListSize: Int = 16 * 1024,
        headerFloodFactor: Int = 4, eagerReleaseAllowance: Int = 64 * 1024, receiveBudget: Int = 4 << 20,
        outboundHighWatermark: Int = 256 * 1024, outboundLowWatermark: Int = 64 * 1024,
        connectionOutboundLimit: Int = 4 << 20
    ) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialStreamWindowSize = initialStreamWindowSize
        self.connectionWindowSize = connectionWindowSize
        self.maxHeaderListSize = maxHeaderListSize
        self.headerFloodFactor = headerFloodFactor
        self.eagerReleaseAllowance = eagerReleaseAllowance
        self.receiveBudget = receiveBudget
        self.outboundHighWatermark = outboundHighWatermark
        self.outboundLowWatermark = outboundLowWatermark
        self.connectionOutboundLimit = connectionOutboundLimit
    }

    public static var defaults: Self { Self() }
}

/// Keepalive: a PING every `interval`; no ACK within `timeout` closes
/// the connection.
public struct KeepaliveConfig: Sendable {
    public var interval: Duration
    public var timeout: Duration

    public init(interval: Duration, timeout: Duration) {
        self.interval = interval
        self.timeout = timeout
    }

    /// grpc's server defaults: every two hours, twenty seconds to answer.
    public static var serverDefaults: Self { Self(interval: .seconds(7200), timeout: .seconds(20)) }
}

/// Limits against a client that opens and resets streams in a loop (CVE-2023-44487):
/// a token bucket of RST_STREAMs, enforced by nghttp2; past it the connection gets GOAWAY.
public struct ResetRateLimit: Sendable {
    public var burst: Int
    public var perSecond: Int

    public init(burst: Int, perSecond: Int) {
        self.burst = burst
        self.perSecond = perSecond
    }

    public static var defaults: Self { Self(burst: 1000, perSecond: 33) }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    package var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
