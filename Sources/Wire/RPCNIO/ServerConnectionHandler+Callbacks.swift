import CNghttp2
import NIOCore
import RPCCore

/// What the connection does with its session's callbacks (`NGHTTP2SessionDelegate`).
extension ServerConnectionHandler: NGHTTP2SessionDelegate {
    // MARK: Receiving

    /// A header block's fields arrive together (RFC 9113 §4.3: no other frame may come
    /// between HEADERS and its CONTINUATIONs), so one block is parsed at a time, in
    /// `headerBlock`, without looking the stream up for every field. A request's stream
    /// is made once its block is complete (`onFrameReceived`), with the parsed head.
    func onBeginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let id = frame.pointee.hd.stream_id
        guard frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
        if frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
            headerBlock.begin(stream: id, isRequest: true)
        } else {
            headerBlock.begin(stream: id, isRequest: false)  // trailers: only counted
        }
        return 0
    }

    func onHeader(
        _ frame: UnsafePointer<nghttp2_frame>, _ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer
    ) -> Int32 {
        guard headerBlock.stream == frame.pointee.hd.stream_id else { return 0 }
        return refuseFlood(headerBlockSize: headerBlock.add(name: name, value: value, cache: headerStrings))
    }

    func onFrameReceived(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        let endStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch UInt32(header.type) {
        case NGHTTP2_HEADERS.rawValue:
            let isRequestBlock = headerBlock.stream == header.stream_id && headerBlock.isRequest
            headerBlock.stream = 0
            if isRequestBlock {
                let verdict = headerBlock.parser.finish(json: jsonRoutes)
                headerBlock.parser.reset()  // the head's metadata is now uniquely owned
                openStream(header.stream_id, consume verdict)
            }
            guard let stream = streams[header.stream_id] else { return 0 }
            if endStream { endOfRequests(stream) }
        case NGHTTP2_DATA.rawValue:
            if endStream, let stream = streams[header.stream_id] { endOfRequests(stream) }
        case NGHTTP2_PING.rawValue where header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0:
            let payload = withUnsafeBytes(of: frame.pointee.ping.opaque_data) {
                UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self))
            }
            pingAcknowledged(payload)
        default:
            break
        }
        return 0
    }

    func onDataChunk(_ id: Int32, _ data: UnsafeRawBufferPointer) -> Int32 {
        let stream = streams[id]
        credit.received(data.count, on: stream)
        guard let stream else { return 0 }
        guard stream.isActiveCall, !stream.requestEnded else {
            credit.release(data.count, of: stream)
            credit.releaseConnection(data.count)  // nothing holds them
            return 0
        }
        if stream.isJSON { return onJSONData(stream, data) }
        // Held against the receive budget, first as part of the message still arriving;
        // each message completed here takes its share (see ServerStreamState).
        stream.partialHeld &+= data.count
        receiveHeld &+= data.count
        var taken = 0  // bytes of messages handed straight to the handler: nothing holds them
        do {
            try credit.deframe(data, of: stream, with: &stream.deframer) { message in
                let size = message.count &+ MessagePrefix.size
                let push = stream.pushRequest(message, bytes: size)
                let held = size &- stream.lent
                stream.lent = 0
                stream.partialHeld &-= held
                if push == .taken {
                    taken &+= held
                } else {
                    stream.queuedHeld &+= held
                }
                return push != .owed
            }
        } catch {
            answer(stream, RequestRejection(status: error.status))
        }
        if taken > 0 {
            receiveHeld &-= taken
            credit.releaseConnection(taken)
        }
        if stream.partialHeld > 0, !stream.statusQueued { lendIfWaiting(stream) }
        return 0
    }

    /// A JSON call's body: kept whole until the end of the stream (it is one message),
    /// held against the receive budget as a message still arriving is; its stream's window
    /// is credited as it arrives. Past `maxReceiveMessageSize` the call is answered 413.
    private func onJSONData(_ stream: ServerStreamState, _ data: UnsafeRawBufferPointer) -> Int32 {
        credit.release(data.count, of: stream)
        guard stream.jsonBody.count + data.count <= config.maxReceiveMessageSize else {
            credit.releaseConnection(data.count)
            stream.jsonBody = []
            answer(
                stream,
                RequestRejection(
                    httpStatus: 413,
                    status: Status(
                        code: .resourceExhausted,
                        message: "Request body larger than \(config.maxReceiveMessageSize) bytes"),
                    format: .json))
            return 0
        }
        stream.jsonBody.append(contentsOf: data)
        stream.partialHeld &+= data.count
        receiveHeld &+= data.count
        lendIfWaiting(stream)
        return 0
    }

    /// If `stream`'s handler waits for the message still arriving, credits the bytes of it
    /// that arrived (beyond the budget: a handler that reads gets its message however
    /// large); if not, the handler says when it starts waiting (`requestBytesTaken`).
    func lendIfWaiting(_ stream: ServerStreamState) {
        guard stream.isWaitingForRequest() else { return }
        credit.releaseConnection(stream.partialHeld)
        receiveHeld &-= stream.partialHeld
        stream.lent &+= stream.partialHeld
        stream.partialHeld = 0
    }

    /// `stream`'s call took `taken` bytes of queued requests (`owed` of them still owed to
    /// the stream's window); `waiting`: its handler is about to wait for the next one.
    func requestBytesTaken(_ stream: ServerStreamState, owed: Int, taken: Int, waiting: Bool) {
        credit.release(min(owed, stream.unreleased), of: stream)
        let left = min(taken, stream.queuedHeld)
        stream.queuedHeld &-= left
        receiveHeld &-= left
        credit.releaseConnection(left)
        if waiting, stream.partialHeld > 0 { lendIfWaiting(stream) }
    }

    func onFrameSent(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        guard header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0,
            let stream = streams[header.stream_id]
        else { return 0 }
        // Our side is done; tell a client still sending that we will not read on
        // (PROTOCOL-HTTP2 "Early Server Closure"), and after a deadline always. Not for
        // JSON: HTTP clients (curl among them) take a reset that arrives while they still
        // upload a body as a failed request, so the rest of the body is read and dropped.
        if stream.resetAfterStatus || (!stream.isJSON && !(session?.isRemoteClosed(header.stream_id) ?? true)) {
            actions.append(.reset(stream: header.stream_id, errorCode: HTTP2ErrorCode.noError))
        }
        return 0
    }

    /// nghttp2 dropped a frame it had queued. A header block of an open stream it could not
    /// send (too large) leaves the client waiting: `headersNotSent` answers it, after the
    /// callbacks. A stream that is closing or gone waits for nothing.
    func onFrameNotSent(_ frame: UnsafePointer<nghttp2_frame>, errorCode: Int32) -> Int32 {
        let header = frame.pointee.hd
        guard UInt32(header.type) == NGHTTP2_HEADERS.rawValue, streams[header.stream_id] != nil,
            errorCode != NGHTTP2_ERR_SESSION_CLOSING.rawValue, errorCode != NGHTTP2_ERR_STREAM_CLOSED.rawValue,
            errorCode != NGHTTP2_ERR_STREAM_CLOSING.rawValue
        else { return 0 }
        actions.append(
            .headersNotSent(stream: header.stream_id, trailers: frame.pointee.headers.cat == NGHTTP2_HCAT_HEADERS))
        return 0
    }

    func onStreamClosed(_ id: Int32, errorCode: UInt32) -> Int32 {
        guard let stream = streams.removeValue(forKey: id) else { return 0 }
        streamClosed()
        dropOutbox(of: stream)
        stream.closeRoom()
        credit.forget(stream)
        receiveHeld &-= stream.held
        credit.releaseConnection(stream.held)
        stream.queuedHeld = 0
        stream.partialHeld = 0
        // A call whose handler sent its status, closed cleanly: nothing is left to cancel
        // (the status is the last thing a handler's runner does).
        if stream.statusQueued, !stream.answeredByTransport, errorCode == HTTP2ErrorCode.noError { return 0 }
        let error =
            errorCode == HTTP2ErrorCode.cancel || errorCode == HTTP2ErrorCode.noError
            ? RPCError(code: .cancelled, message: "The client cancelled the call")
            : RPCError(
                code: .cancelled, message: "The stream was reset: \(HTTP2ErrorMapping.http2ErrorName(errorCode))")
        stream.abandonCall(error)
        return 0
    }

    func readData(
        _ id: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int, _ flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let stream = streams[id] else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let count = stream.outbox.copy(into: buffer, capacity: length)
        if count > 0 {
            outbound.give(count)
            if stream.started { stream.releaseOutbound(count) }
        }
        if stream.outbox.isEmpty {
            if let trailers = stream.pendingTrailers {
                stream.pendingTrailers = nil
                if stream.isJSON {
                    flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue  // the body ends the stream: no trailers
                    return count
                }
                flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue | NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
                submitTrailers(stream, trailers.status, trailers.metadata)
            } else if count == 0 {
                stream.dataDeferred = true
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        }
        return count
    }

    // MARK: Call lifecycle

    /// A request's header block is complete: its stream is made, and its call handed to the
    /// handlers, or answered at once if the request is refused.
    private func openStream(_ id: Int32, _ verdict: consuming Result<RequestHead, RequestRejection>) {
        guard let mailbox else { return }
        switch consume verdict {
        case .failure(let rejection):
            let stream = ServerStreamState(
                id: id, head: RequestHead(path: "", format: rejection.format), remotePeer: remotePeer, config: config,
                mailbox: mailbox, outboundBudget: outbound)
            streams[id] = stream
            answer(stream, rejection)
        case .success(let head):
            // The stream's deadline is `head.timeout` from now, as the timer's below.
            let timeout = head.timeout
            let stream = ServerStreamState(
                id: id, head: head, remotePeer: remotePeer, config: config, mailbox: mailbox, outboundBudget: outbound)
            streams[id] = stream
            stream.started = true
            if let timeout, let context {
                stream.deadlineTimer = context.eventLoop.assumeIsolated().scheduleTask(
                    in: .nanoseconds(timeout.nanosecondsClamped)
                ) { [self] in
                    deadlineExpired(id)
                }
            }
            openedCalls.append(stream)
        }
    }

    private func endOfRequests(_ stream: ServerStreamState) {
        guard !stream.requestEnded else { return }
        stream.requestEnded = true
        guard stream.isActiveCall else { return }
        if stream.isJSON {
            // The body is the one request; accounted for as a message completed in onDataChunk.
            let body = stream.jsonBody
            stream.jsonBody = []
            let size = body.count
            let push = stream.pushRequest(body, bytes: size)
            let held = size &- stream.lent
            stream.lent = 0
            stream.partialHeld &-= held
            if push == .taken {
                receiveHeld &-= held
                credit.releaseConnection(held)
            } else {
                stream.queuedHeld &+= held
            }
            stream.finishRequests()
            return
        }
        do {
            try stream.deframer.finish()
            stream.finishRequests()
        } catch {
            answer(stream, RequestRejection(status: error.status))
        }
    }

    /// Answers a stream from the event loop (rejected request, bad message, deadline);
    /// the status goes out after the callbacks return.
    func answer(_ stream: ServerStreamState, _ rejection: RequestRejection) {
        guard !stream.statusQueued else { return }
        stream.statusQueued = true
        stream.answeredByTransport = true
        stream.abandonCall(RPCError(status: rejection.status))
        actions.append(.answer(stream: stream.id, rejection))
    }
}
