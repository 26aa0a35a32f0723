import CNghttp2
import RPCNIO

/// What the connection does with its session's callbacks (`NGHTTP2SessionDelegate`).
extension HTTP2ServerConnection: NGHTTP2SessionDelegate {
    // MARK: Receiving

    func onBeginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        guard frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
        collector.begin(
            stream: frame.pointee.hd.stream_id, isRequest: frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST)
        return 0
    }

    func onHeader(
        _ frame: UnsafePointer<nghttp2_frame>, _ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer
    ) -> Int32 {
        guard collector.stream == frame.pointee.hd.stream_id else { return 0 }
        return refuseFlood(headerBlockSize: collector.add(name: name, value: value, cache: headerStrings))
    }

    func onFrameReceived(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        let endStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch UInt32(header.type) {
        case NGHTTP2_HEADERS.rawValue:
            if collector.stream == header.stream_id, collector.isRequest {
                open(header.stream_id, collector.finish(), endStream: endStream)
            } else {
                collector.stream = 0
                if endStream, let stream = streams[header.stream_id] { bodyEnded(stream) }  // after trailers
            }
        case NGHTTP2_DATA.rawValue:
            if endStream, let stream = streams[header.stream_id] { bodyEnded(stream) }
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

    /// A request's header block is complete: its stream is made, and either answered by
    /// the server (refused), handed over (no body, or one announced too large), or left
    /// to receive its body.
    private func open(_ id: Int32, _ verdict: Result<RequestHead, RequestHeadCollector.Refusal>, endStream: Bool) {
        switch verdict {
        case .failure(let refusal):
            let stream = RequestStream(id: id, head: nil)
            stream.phase = .answered
            streams[id] = stream
            actions.append(.answer(stream: id, status: refusal.status))
        case .success(let head):
            let stream = RequestStream(id: id, head: head)
            streams[id] = stream
            if let length = head.contentLength, length > config.maxRequestBody {
                stream.bodyTooLarge = true
                handOver(stream)
            } else if endStream {
                handOver(stream)
            } else if let length = head.contentLength {
                stream.body.reserveCapacity(length)
            }
        }
    }

    func onDataChunk(_ id: Int32, _ data: UnsafeRawBufferPointer) -> Int32 {
        let stream = streams[id]
        credit.received(data.count, on: stream)
        guard let stream else { return 0 }
        credit.release(data.count, of: stream)  // the stream's window: only the connection's is held back
        var kept = 0
        if stream.phase == .receiving {
            kept = min(data.count, config.maxRequestBody - stream.body.count)
            stream.body.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[..<kept]))
            stream.held += kept
            receiveHeld += kept
            if kept < data.count {
                stream.bodyTooLarge = true
                handOver(stream)
            }
        }
        credit.releaseConnection(data.count - kept)  // nothing keeps these
        return 0
    }

    private func bodyEnded(_ stream: RequestStream) {
        if stream.phase == .receiving { handOver(stream) }
    }

    /// The request goes to the handler (at the end of this read burst).
    private func handOver(_ stream: RequestStream) {
        guard let mailbox, let head = stream.head else { return }
        stream.phase = .handling
        stream.head = nil
        let request = HTTP2Request(
            method: head.method, path: head.path, authority: head.authority, scheme: head.scheme,
            headers: head.headers, body: stream.body, bodyTooLarge: stream.bodyTooLarge,
            connection: info, streamID: stream.id)
        stream.body = []
        opened.append(PendingRequest(request: request, answers: mailbox))
    }

    func onFrameSent(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        guard header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0, streams[header.stream_id] != nil else {
            return 0
        }
        // Our side is done and the client is still sending (a body too large, a refused
        // request): tell it we will not read on, rather than read the rest.
        if !(session?.isRemoteClosed(header.stream_id) ?? true) {
            actions.append(.reset(stream: header.stream_id, errorCode: HTTP2ErrorCode.noError))
        }
        return 0
    }

    /// nghttp2 dropped a response's HEADERS it had queued (too large to send): the client
    /// would wait for an answer that never comes, so the stream is reset, after the callbacks.
    func onFrameNotSent(_ frame: UnsafePointer<nghttp2_frame>, errorCode: Int32) -> Int32 {
        let header = frame.pointee.hd
        guard UInt32(header.type) == NGHTTP2_HEADERS.rawValue, streams[header.stream_id] != nil,
            errorCode != NGHTTP2_ERR_SESSION_CLOSING.rawValue, errorCode != NGHTTP2_ERR_STREAM_CLOSED.rawValue,
            errorCode != NGHTTP2_ERR_STREAM_CLOSING.rawValue
        else { return 0 }
        report(
            .streamReset(
                peer: peerDescription, stream: header.stream_id,
                reason:
                    "its response headers could not be sent: \(NGHTTP2Error(code: errorCode, operation: "sending HEADERS"))"
            ))
        actions.append(.reset(stream: header.stream_id, errorCode: HTTP2ErrorCode.internalError))
        return 0
    }

    func onStreamClosed(_ id: Int32, errorCode: UInt32) -> Int32 {
        guard let stream = streams.removeValue(forKey: id) else { return 0 }
        streamClosed()
        credit.forget(stream)
        releaseHeld(stream)
        if let goAway = stream.goAwayAfter { actions.append(.goAway(goAway)) }
        return 0
    }

    /// The connection window gets back what `stream` kept.
    func releaseHeld(_ stream: RequestStream) {
        receiveHeld -= stream.held
        credit.releaseConnection(stream.held)
        stream.held = 0
    }

    func readData(
        _ id: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int, _ flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let stream = streams[id] else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let count = min(length, stream.responseBody.count - stream.responseSent)
        if count > 0 {
            stream.responseBody.withUnsafeBufferPointer { body in
                buffer.update(from: body.baseAddress! + stream.responseSent, count: count)
            }
            stream.responseSent += count
        }
        if stream.responseSent == stream.responseBody.count {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            stream.responseBody = []
        }
        return count
    }
}
