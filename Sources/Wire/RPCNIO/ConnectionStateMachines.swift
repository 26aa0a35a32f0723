package import NIOCore

/// Keepalive as a value: which PING is outstanding and what a timer firing means.
///
/// Invariants: at most one keepalive PING is outstanding; an ACK counts only if its
/// payload is the outstanding one; the timeout closes the connection only if that PING is
/// still unanswered.
package struct KeepaliveState {
    package private(set) var outstanding: UInt64?
    private var next: UInt64 = 0x6B65_6570_0000_0000  // "keep" in the high bytes

    /// The payload of the PING to send now, or nil if one is still in flight.
    package init() {}

    package mutating func pingDue() -> UInt64? {
        guard outstanding == nil else { return nil }
        next &+= 1
        outstanding = next
        return next
    }

    /// Returns true if `payload` answered the outstanding PING.
    package mutating func ackReceived(_ payload: UInt64) -> Bool {
        guard payload == outstanding else { return false }
        outstanding = nil
        return true
    }

    /// True if the connection must be closed: the PING `payload` was never answered.
    package func timedOut(_ payload: UInt64) -> Bool { outstanding == payload }
}

/// Graceful shutdown (GOAWAY twice, as RFC 9113 §6.8 suggests): first a notice with the
/// highest stream id and a PING; once the PING returns, every stream the client opened
/// before seeing the notice has arrived, so the final GOAWAY names the last one we took.
/// The connection closes when no stream is left.
///
/// Invariants: states only move forward; the final GOAWAY is sent at most once.
package struct GracefulShutdownState {
    package enum Phase: Equatable { case serving, noticeSent(ping: UInt64), goAwaySent }

    package enum Action: Equatable { case none, sendNoticeAndPing(UInt64), sendFinalGoAway }

    package private(set) var phase = Phase.serving
    package static let pingPayload: UInt64 = 0x676F_6177_6179_0000  // "goaway"

    package init() {}

    package mutating func begin() -> Action {
        guard phase == .serving else { return .none }
        phase = .noticeSent(ping: Self.pingPayload)
        return .sendNoticeAndPing(Self.pingPayload)
    }

    /// The PING came back, or waiting for it took too long.
    package mutating func pingAcknowledged(_ payload: UInt64) -> Action {
        guard case .noticeSent(let ping) = phase, payload == ping else { return .none }
        phase = .goAwaySent
        return .sendFinalGoAway
    }

    package var isShuttingDown: Bool { phase != .serving }
}

/// The timers a connection keeps (all on its event loop).
package struct ConnectionTimers {
    package var keepalive: Scheduled<Void>?
    package var pingTimeout: Scheduled<Void>?
    package var shutdown: Scheduled<Void>?
    /// Armed while the connection has no stream open (see `NGHTTP2ServerConnection.watchIdleness`).
    package var idle: Scheduled<Void>?
    /// When the connection last had no stream open after having one (or started).
    package var idleSince = NIODeadline.now()

    package init() {}

    package mutating func cancelAll() {
        keepalive?.cancel()
        pingTimeout?.cancel()
        shutdown?.cancel()
        idle?.cancel()
        self = ConnectionTimers()
    }
}
