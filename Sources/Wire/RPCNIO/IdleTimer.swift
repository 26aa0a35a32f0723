import NIOCore

/// The idle timer of a connection handler that has no nghttp2 session (the protocol
/// sniffer, an HTTP/1.1 connection; see `NIOServerConfig.idleTimeout`): armed while the
/// connection has nothing in progress, disarmed when something starts. On the handler's
/// event loop only.
struct IdleTimer {
    private var scheduled: Scheduled<Void>?

    /// Arms the timer (from now) unless it is armed already or there is no timeout.
    mutating func arm(_ timeout: Duration?, on loop: any EventLoop, _ fire: @escaping () -> Void) {
        guard let timeout, scheduled == nil else { return }
        scheduled = loop.assumeIsolated().scheduleTask(in: .nanoseconds(timeout.nanosecondsClamped), fire)
    }

    mutating func disarm() {
        scheduled?.cancel()
        scheduled = nil
    }
}
