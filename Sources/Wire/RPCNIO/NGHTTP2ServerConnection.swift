import CNghttp2
package import NIOCore

/// What every server connection on an nghttp2 session does the same way, whatever it
/// serves (gRPC calls here, plain HTTP/2 requests in the HTTP2 target): making and starting
/// the session, keepalive PINGs, graceful shutdown, and ending a session that failed.
package protocol NGHTTP2ServerConnection: NGHTTP2ConnectionHandler, NGHTTP2SessionDelegate, SendableMetatype {
    associatedtype Command: Sendable
    /// How the handlers' tasks reach the event loop; `drainMailbox` applies what came.
    var mailbox: Mailbox<Command>? { get set }
    func drainMailbox()
    var resetRateLimit: ResetRateLimit { get }
    /// The connection window the session opens with (the receive budget).
    var receiveWindow: Int { get }
    /// True once the session has sent its SETTINGS.
    var started: Bool { get set }
    /// Just before the session starts, with the channel active (default: nothing).
    func sessionStarting(_ context: ChannelHandlerContext)
    var keepaliveConfig: KeepaliveConfig? { get }
    /// How long to wait for the PING that follows the shutdown notice.
    var shutdownPingTimeout: Duration { get }
    var keepalive: KeepaliveState { get set }
    var shutdown: GracefulShutdownState { get set }
    var timers: ConnectionTimers { get set }
    /// Queues the final GOAWAY, for `runActions` to submit outside nghttp2's callbacks.
    func queueFinalGoAway()
    /// The peer's address, for reports (`ipv4:127.0.0.1:51234`).
    var peerDescription: String { get }
    /// Where reports go (nil: nowhere).
    var events: ConnectionEventSink? { get }
    /// A connection without a stream open this long is closed (GOAWAY); nil: never.
    var idleTimeout: Duration? { get }
    /// Whether any stream is open (a long watch keeps a connection from being idle).
    var hasOpenStreams: Bool { get }
    /// Our side is closed (FIN sent); what the client still sends is dropped.
    var lingering: Bool { get set }
    var lingerTimer: Scheduled<Void>? { get set }
}

/// The end of a connection.
extension NGHTTP2ServerConnection {
    /// How long a connection whose last frames went out waits for the client to close.
    package static var lingerTimeout: TimeAmount { .seconds(2) }

    /// FIN after the frames written, then the client's late bytes (a WINDOW_UPDATE, a
    /// SETTINGS ACK, a request it sent before our GOAWAY reached it) are read and dropped
    /// until it closes too, or for `lingerTimeout`. Closing at once would make the kernel
    /// answer such bytes with a reset, which can destroy our last frames (an answer, the
    /// GOAWAY) before the client reads them; with the GOAWAY read, the client knows which
    /// of its requests were never taken (REFUSED_STREAM) and can make them again.
    package func closeAfterLastFrames() {
        guard let context, !lingering else { return }
        lingering = true
        timers.cancelAll()
        context.close(mode: .output, promise: nil)
        lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTimeout) { [self] in
            self.context?.close(promise: nil)
        }
    }
}

/// The session's start.
extension NGHTTP2ServerConnection {
    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        mailbox = Mailbox(eventLoop: context.eventLoop) { loopBound.value.drainMailbox() }
        do {
            session = try NGHTTP2Session(
                options: .init(role: .server, resetRateLimit: resetRateLimit), delegate: self)
        } catch {
            context.close(promise: nil)
            return
        }
        if context.channel.isActive { startSession(context) }
    }

    package func channelActive(context: ChannelHandlerContext) {
        startSession(context)
        context.fireChannelActive()
    }

    package func sessionStarting(_ context: ChannelHandlerContext) {}

    /// SETTINGS first (a client such as grpcio waits for them; behind TLS they wait in the
    /// TLS handler for the handshake), then the keepalive timer.
    private func startSession(_ context: ChannelHandlerContext) {
        guard !started, let session else { return }
        started = true
        sessionStarting(context)
        do {
            try session.start(http2, connectionWindow: receiveWindow, isClient: false)
        } catch {
            context.close(promise: nil)
            return
        }
        scheduleKeepalive()
        timers.idleSince = .now()
        flushOutput()
    }
}

/// Idle connections: gRPC's `max_connection_idle`. A connection whose last stream closed
/// `idleTimeout` ago (or that never opened one) gets GOAWAY and closes; a connection with
/// a stream open, however quiet (a watch), is never idle. Keepalive PINGs do not count.
extension NGHTTP2ServerConnection {
    /// After every burst of work (`flushOutput`): arms the idle timer while no stream is
    /// open, disarms it while one is.
    package func watchIdleness() {
        guard let timeout = idleTimeout, let context else { return }
        if hasOpenStreams || shutdown.isShuttingDown {
            timers.idle?.cancel()
            timers.idle = nil
            return
        }
        guard timers.idle == nil else { return }
        timers.idle = context.eventLoop.assumeIsolated().scheduleTask(
            deadline: timers.idleSince + .nanoseconds(timeout.nanosecondsClamped)
        ) { [self] in
            timers.idle = nil
            guard !hasOpenStreams, !shutdown.isShuttingDown else { return }
            // A call opened and closed since the timer was armed: idle only from its end.
            if timers.idleSince + .nanoseconds(timeout.nanosecondsClamped) > .now() {
                watchIdleness()
                return
            }
            report(.idleClosed(peer: peerDescription, after: timeout))
            beginGracefulShutdown()
        }
    }

    /// A stream closed: with none left, the connection is idle from now.
    package func streamClosed() {
        if !hasOpenStreams { timers.idleSince = .now() }
    }
}

/// Keepalive PINGs and graceful shutdown.
extension NGHTTP2ServerConnection {
    package func scheduleKeepalive() {
        guard let keepalive = keepaliveConfig, let context else { return }
        timers.keepalive = context.eventLoop.assumeIsolated().scheduleTask(
            in: .nanoseconds(keepalive.interval.nanosecondsClamped)
        ) { [self] in
            sendKeepalivePing()
        }
    }

    private func sendKeepalivePing() {
        guard let config = keepaliveConfig, let context, session != nil else { return }
        if let payload = keepalive.pingDue() {
            submit { session throws(NGHTTP2Error) in try session.ping(payload) }
            flushOutput()
            timers.pingTimeout = context.eventLoop.assumeIsolated().scheduleTask(
                in: .nanoseconds(config.timeout.nanosecondsClamped)
            ) { [self] in
                if keepalive.timedOut(payload) {
                    report(
                        .goAwaySent(
                            peer: peerDescription, errorCode: HTTP2ErrorCode.noError,
                            reason: "keepalive PING unanswered"))
                    try? self.session?.terminate(errorCode: HTTP2ErrorCode.noError)  // closing either way
                    flushOutput()
                    self.context?.close(promise: nil)
                }
            }
        }
        scheduleKeepalive()
    }

    package func pingAcknowledged(_ payload: UInt64) {
        _ = keepalive.ackReceived(payload)
        if shutdown.pingAcknowledged(payload) == .sendFinalGoAway {
            queueFinalGoAway()
        }
    }

    /// GOAWAY notice and PING now; the final GOAWAY when the PING returns (or after
    /// `shutdownPingTimeout`); the connection closes once its streams are done.
    package func beginGracefulShutdown() {
        guard let context, session != nil else { return }
        guard case .sendNoticeAndPing(let payload) = shutdown.begin() else { return }
        submit { session throws(NGHTTP2Error) in
            try session.shutdownNotice()
            try session.ping(payload)
        }
        flushOutput()
        timers.shutdown = context.eventLoop.assumeIsolated().scheduleTask(
            in: .nanoseconds(shutdownPingTimeout.nanosecondsClamped)
        ) { [self] in
            if shutdown.pingAcknowledged(payload) == .sendFinalGoAway {
                submit { session throws(NGHTTP2Error) in try session.finalGoAway() }
                flushOutput()
            }
        }
    }

    package func report(_ event: ConnectionEvent) {
        events?(event)
    }

    /// After a failed `mem_recv`: GOAWAY with the reason, then close.
    package func sessionFailed(_ error: NGHTTP2Error) {
        let code: UInt32
        if let fault {
            code = fault
        } else if error.code == NGHTTP2_ERR_FLOODED.rawValue {
            code = HTTP2ErrorCode.enhanceYourCalm
        } else {
            code = HTTP2ErrorCode.protocolError
        }
        let reason = code == HTTP2ErrorCode.enhanceYourCalm ? "flood cut (\(error))" : "\(error)"
        report(.goAwaySent(peer: peerDescription, errorCode: code, reason: reason))
        try? session?.terminate(errorCode: code)  // closing either way
        flushOutput()
        context?.close(promise: nil)
    }
}
