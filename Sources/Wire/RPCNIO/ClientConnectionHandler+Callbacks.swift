import CNghttp2
import NIOCore
import RPCCore

/// What the client connection does with its session's callbacks (`NGHTTP2SessionDelegate`).
extension ClientConnectionHandler: NGHTTP2SessionDelegate {
    func onBeginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        guard let stream = byID[frame.pointee.hd.stream_id] else { return 0 }
        let block: ResponseHeadParser.Block = frame.pointee.headers.cat == NGHTTP2_HCAT_HEADERS ? .trailers : .headers
        stream.parser = ResponseHeadParser(block: block, maxHeaderListSize: config.http2.maxHeaderListSize)
        stream.headerBytes = 0
        return 0
    }

    func onHeader(
        _ frame: UnsafePointer<nghttp2_frame>, _ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer
    ) -> Int32 {
        guard let stream = byID[frame.pointee.hd.stream_id], stream.parser != nil else { return 0 }
        stream.parser!.add(name: name, value: value)
        stream.headerBytes += HeaderListSize.fieldSize(nameCount: name.count, valueCount: value.count)
        return refuseFlood(headerBlockSize: stream.headerBytes)
    }

    func onFrameReceived(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        let endStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch UInt32(header.type) {
        case NGHTTP2_HEADERS.rawValue:
            guard let stream = byID[header.stream_id], let parser = stream.parser else { return 0 }
            stream.parser = nil
            switch parser.finish(endStream: endStream) {
            case .informational: break
            case .metadata(let metadata):
                if !stream.finished { stream.queues.inbound.push(.metadata(metadata)) }
            case .status(let status, let trailers):
                stream.finish(status, trailers)
                if !endStream { actions.append(.reset(stream: header.stream_id, errorCode: HTTP2ErrorCode.cancel)) }
            }
        case NGHTTP2_DATA.rawValue:
            if endStream, let stream = byID[header.stream_id], !stream.finished {
                stream.finish(
                    Status(code: .internal, message: "The server ended the stream without trailers"), Metadata())
            }
        case NGHTTP2_GOAWAY.rawValue:
            state.markUnusable()
            refuseUnsentRequests()
        case NGHTTP2_PING.rawValue where header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0:
            let payload = withUnsafeBytes(of: frame.pointee.ping.opaque_data) {
                UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self))
            }
            _ = keepalive.ackReceived(payload)
        default:
            break
        }
        return 0
    }

    func onDataChunk(_ id: Int32, _ data: UnsafeRawBufferPointer) -> Int32 {
        let stream = byID[id]
        credit.received(data.count, on: stream)
        guard let stream else { return 0 }
        guard !stream.finished else {
            credit.release(data.count, of: stream)
            return 0
        }
        let inbound = stream.queues.inbound
        do {
            try credit.deframe(data, of: stream, with: &stream.deframer) { message in
                inbound.push(.message(message), bytes: message.count + MessagePrefix.size)
            }
        } catch {
            stream.finish(error.status, Metadata())
            actions.append(.reset(stream: id, errorCode: HTTP2ErrorCode.cancel))
        }
        return 0
    }

    func onStreamClosed(_ id: Int32, errorCode: UInt32) -> Int32 {
        guard let stream = byID[id] else { return 0 }
        forget(stream)
        if !stream.finished {
            let status =
                errorCode == HTTP2ErrorCode.noError
                ? Status(code: .internal, message: "The stream closed without a status")
                : HTTP2ErrorMapping.status(forResetCode: errorCode)
            // REFUSED_STREAM: closed before any processing (RFC 9113 §8.7), e.g. past the
            // last stream a GOAWAY named: safe to make again.
            stream.finish(status, errorCode == HTTP2ErrorCode.refusedStream ? RequestNotSent.trailers : Metadata())
        }
        return 0
    }

    /// After a GOAWAY, nghttp2 starts no new stream: a request whose HEADERS are still
    /// queued (held back by the server's SETTINGS_MAX_CONCURRENT_STREAMS) would wait for a
    /// free stream only to be dropped then, or for the connection to close. Its call ends
    /// now with UNAVAILABLE (the request never left, so it is safe to retry), and the reset,
    /// run after the callbacks, takes its HEADERS out of nghttp2's queue.
    private func refuseUnsentRequests() {
        guard let session else { return }
        let status = Status(
            code: .unavailable,
            message: "The server is going away (GOAWAY) and refused new calls; the request was not sent")
        for stream in byID.values where !session.streamExists(stream.id) {
            forget(stream)
            stream.finish(status, RequestNotSent.trailers)
            actions.append(.reset(stream: stream.id, errorCode: HTTP2ErrorCode.cancel))
        }
    }

    /// nghttp2 dropped a frame it had queued. For a request's HEADERS (a GOAWAY arrived, or
    /// the session is closing, before the stream could start) no stream ever opens, so none
    /// will close: the call ends here. The request never left, so it is safe to retry:
    /// UNAVAILABLE.
    /// Nothing to do once a frame went out (the client keeps no per-frame accounting).
    func onFrameSent(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 { 0 }

    func onFrameNotSent(_ frame: UnsafePointer<nghttp2_frame>, errorCode: Int32) -> Int32 {
        let header = frame.pointee.hd
        guard UInt32(header.type) == NGHTTP2_HEADERS.rawValue, let stream = byID[header.stream_id] else { return 0 }
        forget(stream)
        let reason =
            errorCode == NGHTTP2_ERR_START_STREAM_NOT_ALLOWED.rawValue
            ? "The server is going away (GOAWAY) and refused new calls; the request was not sent"
            : "The request could not be sent: \(NGHTTP2Error(code: errorCode, operation: "sending its HEADERS"))"
        stream.finish(Status(code: .unavailable, message: reason), RequestNotSent.trailers)
        return 0
    }

    func readData(
        _ id: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int, _ flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let stream = byID[id] else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let count = stream.outbox.copy(into: buffer, capacity: length)
        if count > 0 { stream.queues.gate.release(count) }
        if stream.outbox.isEmpty {
            if stream.requestEnded {
                flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            } else if count == 0 {
                stream.dataDeferred = true
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        }
        return count
    }

    /// Drops a call that is over from the tables, giving back its unreleased bytes.
    func forget(_ stream: ClientStreamState) {
        byID.removeValue(forKey: stream.id)
        byToken.removeValue(forKey: stream.token)
        credit.forget(stream)
    }
}
