/// What a server did about a peer that an operator should hear of: the traces hostile or
/// broken traffic leaves (ServiceKit logs them, rate limited, with the peer's address).
/// The transports only report; what becomes of a report is the sink's business.
public enum ConnectionEvent: Sendable, Hashable {
    /// The connection was ended with GOAWAY for what the peer did (a flood of resets or
    /// header blocks, a protocol error, an unanswered keepalive).
    case goAwaySent(peer: String, errorCode: UInt32, reason: String)
    /// The connection had no call open for the idle timeout and was closed.
    case idleClosed(peer: String, after: Duration)
    /// The TLS handshake did not complete within its timeout.
    case handshakeTimedOut(peer: String, after: Duration)
    /// `accept` failed (out of file descriptors, usually): the listener waits before the next.
    case acceptFailed(error: String, backoff: Duration)
    /// A stream's response could not be sent as submitted (a header block over nghttp2's
    /// limit, a failed submit): answered otherwise or reset.
    case streamReset(peer: String, stream: Int32, reason: String)

    /// Events of one kind share a rate limit.
    public var kind: String {
        switch self {
        case .goAwaySent: "goaway_sent"
        case .idleClosed: "idle_closed"
        case .handshakeTimedOut: "tls_handshake_timeout"
        case .acceptFailed: "accept_failed"
        case .streamReset: "stream_reset"
        }
    }
}

/// Where a transport reports `ConnectionEvent`s; called on event loops, so it must not block.
public typealias ConnectionEventSink = @Sendable (ConnectionEvent) -> Void
