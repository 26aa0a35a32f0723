import CNghttp2
import NIOCore
import RPCCore

/// Turning what calls asked for into requests, DATA and resets.
extension ClientConnectionHandler {
    func drainMailbox() {
        guard let mailbox else { return }
        mailbox.drain(into: &spare)
        for command in spare { apply(command) }
        spare.removeAll(keepingCapacity: true)
        flushOutput()
    }

    private func apply(_ command: ClientCommand) {
        switch command {
        case .open(let token, let head, let queues):
            open(token, head, queues)
        case .message(let token, let message, let endStream):
            guard let stream = byToken[token], !stream.finished, !stream.requestEnded else { return }
            stream.outbox.append(message)
            if endStream { stream.requestEnded = true }
            resumeIfDeferred(stream)
        case .finish(let token):
            guard let stream = byToken[token], !stream.requestEnded else { return }
            stream.requestEnded = true
            resumeIfDeferred(stream)
        case .cancel(let token):
            guard let stream = byToken[token] else { return }
            cancel(stream, Status(code: .cancelled, message: "Cancelled by the client"))
        case .released(let token, let bytes):
            guard let stream = byToken[token] else { return }
            credit.release(min(bytes, stream.unreleased), of: stream)
        }
    }

    private func open(_ token: Int, _ head: ClientRequestHead, _ queues: ClientCallQueues) {
        guard let session, let context else { return }
        let stream = ClientStreamState(token: token, queues: queues, maxMessageSize: config.maxReceiveMessageSize)
        encoder.reset()
        encoder.addStatic(":method", "POST")
        encoder.addStatic(":scheme", "http")
        encoder.add(":path", head.method.path)
        encoder.add(":authority", authority)
        encoder.addStatic("content-type", "application/grpc")
        encoder.addStatic("te", "trailers")
        encoder.add("user-agent", config.userAgent)
        if let timeout = head.timeout { encoder.add("grpc-timeout", GRPCTimeout.format(timeout)) }
        encoder.add(head.metadata)
        var provider = NGHTTP2Session.dataProvider
        let id = encoder.withFields { fields, count in
            nghttp2_submit_request(session.pointer, nil, fields, count, &provider, nil)
        }
        guard id > 0 else {
            queues.fail(
                Status(
                    code: .unavailable,
                    message: "Could not start a stream: \(NGHTTP2Error(code: id, operation: "nghttp2_submit_request"))")
            )
            return
        }
        stream.id = id
        byID[id] = stream
        byToken[token] = stream
        if let timeout = head.timeout {
            stream.deadlineTimer = context.eventLoop.assumeIsolated().scheduleTask(
                in: .nanoseconds(max(timeout.nanosecondsClamped, 0))
            ) { [self] in
                guard let stream = byToken[token] else { return }
                cancel(stream, Status(code: .deadlineExceeded, message: "Deadline exceeded"))
                flushOutput()
            }
        }
    }

    /// Ends the call with `status` and resets its stream (CANCEL).
    ///
    /// A call whose request HEADERS are still queued (cancelled in the same burst that
    /// opened it) has no stream in nghttp2 yet: the reset takes those HEADERS out of the
    /// queue, so nothing reaches the server, and as no stream opens none will close either;
    /// the call is forgotten here, or it would hold the connection open forever.
    private func cancel(_ stream: ClientStreamState, _ status: Status) {
        stream.deadlineTimer = nil
        stream.finish(status, Metadata())
        guard let session, stream.id > 0 else { return }
        submit { session throws(NGHTTP2Error) in try session.resetStream(stream.id, errorCode: HTTP2ErrorCode.cancel) }
        if !session.streamExists(stream.id) { forget(stream) }
    }

    private func resumeIfDeferred(_ stream: ClientStreamState) {
        guard stream.dataDeferred else { return }
        stream.dataDeferred = false
        submit { session throws(NGHTTP2Error) in try session.resumeData(stream: stream.id) }
    }

    func scheduleKeepalive() {
        guard let keepaliveConfig = config.keepalive, let context else { return }
        timers.keepalive = context.eventLoop.assumeIsolated().scheduleTask(
            in: .nanoseconds(keepaliveConfig.interval.nanosecondsClamped)
        ) { [self] in
            if let payload = keepalive.pingDue() {
                submit { session throws(NGHTTP2Error) in try session.ping(payload) }
                flushOutput()
                timers.pingTimeout = self.context?.eventLoop.assumeIsolated().scheduleTask(
                    in: .nanoseconds(keepaliveConfig.timeout.nanosecondsClamped)
                ) { [self] in
                    if keepalive.timedOut(payload) { self.context?.close(promise: nil) }
                }
            }
            scheduleKeepalive()
        }
    }
}
