import NIOCore
import RPCCore

/// Keepalive PINGs and graceful shutdown.
extension ServerConnectionHandler {
    func scheduleKeepalive() {
        guard let keepalive = config.keepalive, let context else { return }
        timers.keepalive = context.eventLoop.assumeIsolated().scheduleTask(
            in: .nanoseconds(keepalive.interval.nanosecondsClamped)
        ) { [self] in
            sendKeepalivePing()
        }
    }

    private func sendKeepalivePing() {
        guard let config = config.keepalive, let context, let session else { return }
        if let payload = keepalive.pingDue() {
            session.ping(payload)
            flushOutput()
            timers.pingTimeout = context.eventLoop.assumeIsolated().scheduleTask(
                in: .nanoseconds(config.timeout.nanosecondsClamped)
            ) { [self] in
                if keepalive.timedOut(payload) {
                    self.session?.terminate(errorCode: HTTP2ErrorCode.noError)
                    flushOutput()
                    self.context?.close(promise: nil)
                }
            }
        }
        scheduleKeepalive()
    }

    func pingAcknowledged(_ payload: UInt64) {
        _ = keepalive.ackReceived(payload)
        if shutdown.pingAcknowledged(payload) == .sendFinalGoAway {
            actions.append(.finalGoAway)
        }
    }

    /// GOAWAY notice and PING now; the final GOAWAY when the PING returns (or after
    /// `shutdownPingTimeout`); the connection closes once its streams are done.
    func beginGracefulShutdown() {
        guard let context, let session else { return }
        guard case .sendNoticeAndPing(let payload) = shutdown.begin() else { return }
        session.shutdownNotice()
        session.ping(payload)
        flushOutput()
        timers.shutdown = context.eventLoop.assumeIsolated().scheduleTask(
            in: .nanoseconds(config.shutdownPingTimeout.nanosecondsClamped)
        ) { [self] in
            if shutdown.pingAcknowledged(payload) == .sendFinalGoAway {
                self.session?.finalGoAway()
                flushOutput()
            }
        }
    }
}
