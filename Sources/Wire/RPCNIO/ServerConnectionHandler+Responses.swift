import CNghttp2
import NIOCore
import RPCCore

/// Turning what calls and the event loop decided into HEADERS, DATA and trailers.
extension ServerConnectionHandler {
    /// Woken by the mailbox: applies every command the calls sent since the last drain.
    func drainMailbox() {
        guard let mailbox else { return }
        mailbox.drain(into: &spare)
        // Taken out by moving (reversed, then popped from the end): iterating would copy
        // each command, retaining its payloads on this thread only to release them again
        // when the array is emptied, and the handler threads touched those counts last.
        spare.reverse()
        while let command = spare.popLast() {
            switch command {
            case .part(let id, let part):
                if let stream = streams[id] { apply(part, to: stream) }
            case .written(let id, let message, let room):
                if let stream = streams[id], !stream.statusQueued {
                    apply(.message(message), to: stream, prepaid: true)
                } else {
                    outbound.give(room)  // the stream is over: the room its writer took goes back
                }
            case .taken(let id, let owed, let taken, let waiting):
                if let stream = streams[id] { requestBytesTaken(stream, owed: owed, taken: taken, waiting: waiting) }
            case .single(let id, let metadata, let message, let trailers):
                if let stream = streams[id] { applySingle(metadata, message, trailers, to: stream) }
            }
        }
        flushOutput()
    }

    /// `prepaid`: a message whose room in the outbound budget its writer took.
    private func apply(_ part: RPCResponsePart, to stream: ServerStreamState, prepaid: Bool = false) {
        guard !stream.statusQueued else { return }
        if stream.isJSON {
            applyJSON(part, to: stream, prepaid: prepaid)
            return
        }
        switch part {
        case .metadata(let metadata):
            if !stream.headersSent { sendHeaders(stream, metadata) }
        case .message(let bytes):
            if !stream.headersSent { sendHeaders(stream, Metadata()) }
            queue(bytes, on: stream, prepaid: prepaid)
            resumeIfDeferred(stream)
        case .status(let status, let trailers):
            stream.statusQueued = true
            stream.deadlineTimer?.cancel()
            stream.deadlineTimer = nil
            sendStatus(stream, status, trailers)
        }
    }

    /// `apply` of metadata, message and OK status, without wrapping each in a part.
    private func applySingle(
        _ metadata: Metadata, _ message: [UInt8], _ trailers: Metadata, to stream: ServerStreamState
    ) {
        guard !stream.statusQueued else { return }
        if stream.isJSON {
            applyJSONSingle(metadata, message, trailers, to: stream)
            return
        }
        if !stream.headersSent { sendHeaders(stream, metadata) }
        queue(message, on: stream, prepaid: false)
        resumeIfDeferred(stream)
        stream.statusQueued = true
        stream.deadlineTimer?.cancel()
        stream.deadlineTimer = nil
        sendStatus(stream, .ok, trailers)
    }

    /// Puts `bytes` in the stream's outbox, counted in the connection's outbound budget
    /// (`prepaid`: its writer took the room already; otherwise it is counted now, without
    /// waiting: parts that end a call are not held back).
    func queue(_ bytes: [UInt8], on stream: ServerStreamState, prepaid: Bool) {
        let before = stream.outbox.count
        stream.outbox.append(bytes)
        if !prepaid { outbound.takeWithoutWaiting(stream.outbox.count - before) }
    }

    /// Drops what the stream still had to send; its room in the budget goes back.
    func dropOutbox(of stream: ServerStreamState) {
        outbound.give(stream.outbox.count)
        stream.outbox.removeAll()
    }

    /// Runs what nghttp2's callbacks queued (outside of them).
    func runActions() {
        guard let session else { return }
        if !actions.isEmpty {
            let pending = actions
            actions.removeAll(keepingCapacity: true)
            for action in pending {
                switch action {
                case .answer(let id, let rejection):
                    guard let stream = streams[id] else { continue }
                    if stream.isJSON {
                        answerJSON(stream, rejection)
                    } else if stream.headersSent {
                        sendStatus(stream, rejection.status, Metadata())
                    } else {
                        sendTrailersOnly(stream, rejection.status, Metadata(), rejection)
                    }
                case .reset(let id, let errorCode):
                    submit { session throws(NGHTTP2Error) in try session.resetStream(id, errorCode: errorCode) }
                case .finalGoAway:
                    submit { session throws(NGHTTP2Error) in try session.finalGoAway() }
                case .headersNotSent(let id, let trailers):
                    if let stream = streams[id] { headersNotSent(stream, trailers: trailers) }
                }
            }
        }
        credit.give(to: session)
        // Held bytes past half the window: nghttp2 would wait for half the window of credit
        // before sending any, and the rest of the window may never get there.
        if receiveHeld > receiveWindow / 2 {
            submit { session throws(NGHTTP2Error) in try session.sendConnectionCredit(keeping: receiveHeld) }
        }
    }

    private func sendHeaders(_ stream: ServerStreamState, _ metadata: Metadata) {
        guard let session else { return }
        encoder.reset()
        encoder.addStatic(":status", "200")
        encoder.addStatic("content-type", "application/grpc")
        encoder.add(metadata)
        var provider = NGHTTP2Session.dataProvider
        let result = encoder.withFields { fields, count in
            nghttp2_submit_response(session.pointer, stream.id, fields, count, &provider)
        }
        stream.headersSent = true
        if result != 0 { streamSubmitFailed(stream, NGHTTP2Error(code: result, operation: "nghttp2_submit_response")) }
    }

    /// The final status: trailers after the queued messages, or trailers-only.
    private func sendStatus(_ stream: ServerStreamState, _ status: Status, _ trailers: Metadata) {
        if stream.headersSent {
            stream.pendingTrailers = (status, trailers)
            resumeIfDeferred(stream)
        } else {
            sendTrailersOnly(stream, status, trailers, nil)
        }
    }

    private func sendTrailersOnly(
        _ stream: ServerStreamState, _ status: Status, _ trailers: Metadata, _ rejection: RequestRejection?
    ) {
        guard let session else { return }
        encoder.reset()
        switch rejection?.httpStatus ?? 200 {
        case 405: encoder.addStatic(":status", "405")
        case 415: encoder.addStatic(":status", "415")
        default: encoder.addStatic(":status", "200")
        }
        encoder.addStatic("content-type", "application/grpc")
        encoder.addStatus(status)
        if rejection?.advertiseAcceptedEncodings == true {
            encoder.addStatic("grpc-accept-encoding", "identity")
        }
        encoder.add(trailers)
        let result = encoder.withFields { fields, count in
            nghttp2_submit_response(session.pointer, stream.id, fields, count, nil)
        }
        stream.headersSent = true
        if result != 0 { streamSubmitFailed(stream, NGHTTP2Error(code: result, operation: "nghttp2_submit_response")) }
    }

    /// Inside the data read callback, as nghttp2 allows for trailers.
    func submitTrailers(_ stream: ServerStreamState, _ status: Status, _ trailers: Metadata) {
        guard let session else { return }
        encoder.reset()
        encoder.addStatus(status)
        encoder.add(trailers)
        let result = encoder.withFields { fields, count in
            nghttp2_submit_trailer(session.pointer, stream.id, fields, count)
        }
        if result != 0 { streamSubmitFailed(stream, NGHTTP2Error(code: result, operation: "nghttp2_submit_trailer")) }
    }

    /// nghttp2 took a stream's header block but could not send it (over its 64 KiB limit for
    /// a header block: large custom metadata): without this the client would wait for the
    /// response until its deadline. Once, the status goes out alone instead, as INTERNAL
    /// with the reason (trailers-only if the response headers were the ones refused); if
    /// that cannot be sent either, the stream is reset.
    func headersNotSent(_ stream: ServerStreamState, trailers: Bool) {
        guard let session, !stream.isJSON, !stream.sentFallbackStatus else {
            streamSubmitFailed(
                stream, NGHTTP2Error(code: NGHTTP2_ERR_FRAME_SIZE_ERROR.rawValue, operation: "sending a header block"))
            return
        }
        stream.sentFallbackStatus = true
        report(
            .streamReset(
                peer: remotePeer, stream: stream.id,
                reason:
                    "its \(trailers ? "trailers" : "response headers") were too large to send; answered INTERNAL instead"
            ))
        encoder.reset()
        if !trailers {
            encoder.addStatic(":status", "200")
            encoder.addStatic("content-type", "application/grpc")
        }
        encoder.addStatus(
            Status(
                code: .internal,
                message: "The server's response \(trailers ? "trailers" : "headers") were too large to send"))
        let result = encoder.withFields { fields, count in
            trailers
                ? nghttp2_submit_trailer(session.pointer, stream.id, fields, count)
                : nghttp2_submit_response(session.pointer, stream.id, fields, count, nil)
        }
        if result != 0 { streamSubmitFailed(stream, NGHTTP2Error(code: result, operation: "nghttp2_submit_trailer")) }
    }

    /// What was submitted for `stream` will not reach the client (a submit failed, or its
    /// fallback was not sent either): the call ends and the stream is reset
    /// (INTERNAL_ERROR), after the callbacks, so the client sees its end at once.
    func streamSubmitFailed(_ stream: ServerStreamState, _ error: NGHTTP2Error) {
        stream.statusQueued = true
        stream.answeredByTransport = true
        stream.abandonCall(RPCError(code: .internal, message: "The response could not be sent: \(error)"))
        report(.streamReset(peer: remotePeer, stream: stream.id, reason: "\(error)"))
        actions.append(.reset(stream: stream.id, errorCode: HTTP2ErrorCode.internalError))
    }

    func resumeIfDeferred(_ stream: ServerStreamState) {
        guard stream.dataDeferred else { return }
        stream.dataDeferred = false
        submit { session throws(NGHTTP2Error) in try session.resumeData(stream: stream.id) }
    }

    /// The client's deadline passed: DEADLINE_EXCEEDED, then RST_STREAM(NO_ERROR), and
    /// the handler is cancelled.
    func deadlineExpired(_ id: Int32) {
        guard let stream = streams[id], stream.isActiveCall else { return }
        stream.deadlineTimer = nil
        stream.resetAfterStatus = true
        // JSON lines already queued go out whole, so that the error line is a line of its own.
        if !stream.isJSON { dropOutbox(of: stream) }
        answer(stream, RequestRejection(status: Status(code: .deadlineExceeded, message: "Deadline exceeded")))
        flushOutput()
    }
}
