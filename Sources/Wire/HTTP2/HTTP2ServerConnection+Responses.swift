import CNghttp2
import RPCNIO

/// Turning answers into HEADERS and DATA, and running what the callbacks queued.
extension HTTP2ServerConnection {
    /// Woken by the mailbox: submits every answer that arrived since the last drain.
    func drainMailbox() {
        guard let mailbox else { return }
        mailbox.drain(into: &spare)
        for answer in spare {
            if let stream = streams[answer.stream] { respond(stream, answer.response) }
        }
        spare.removeAll(keepingCapacity: true)
        flushOutput()
    }

    func runActions() {
        guard let session else { return }
        if !actions.isEmpty {
            let pending = actions
            actions.removeAll(keepingCapacity: true)
            for action in pending {
                switch action {
                case .answer(let id, let status):
                    if let stream = streams[id] { submit(stream, HTTP2Response(status: status), to: session) }
                case .reset(let id, let errorCode):
                    submit { session throws(NGHTTP2Error) in try session.resetStream(id, errorCode: errorCode) }
                case .finalGoAway:
                    submit { session throws(NGHTTP2Error) in try session.finalGoAway() }
                case .goAway(let goAway):
                    submit { session throws(NGHTTP2Error) in try session.goAway(goAway) }
                }
            }
        }
        credit.give(to: session)
        // Held bytes past half the window: nghttp2 waits for half a window of credit before
        // it sends any, and the rest of the window may never get there.
        if receiveHeld > receiveWindow / 2 {
            submit { session throws(NGHTTP2Error) in try session.sendConnectionCredit(keeping: receiveHeld) }
        }
    }

    /// The handler's answer for `stream` (once; a stream already answered keeps its answer).
    private func respond(_ stream: RequestStream, _ response: HTTP2Response) {
        guard stream.phase == .handling, let session else { return }
        stream.goAwayAfter = response.goAway
        if response.trustsConnection { trust(session) }
        submit(stream, response, to: session)
    }

    /// Raises the stream limit from the untrusted one, once: a SETTINGS frame that goes out
    /// before the response that earned it. nghttp2 refuses streams past the new limit only
    /// once the client has acknowledged it, and past the old one until then.
    private func trust(_ session: NGHTTP2Session) {
        guard !trusted, config.maxConcurrentStreamsUntilTrusted != nil else { return }
        trusted = true
        var raised = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: UInt32(clamping: config.http2.maxConcurrentStreams))
        ]
        // Fails only without memory; the connection then keeps the lower limit, which is
        // still correct, only slower.
        _ = nghttp2_submit_settings(session.pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), &raised, raised.count)
    }

    private func submit(_ stream: RequestStream, _ response: HTTP2Response, to session: NGHTTP2Session) {
        stream.phase = .answered
        releaseHeld(stream)
        // 204 and 304 have no content (RFC 9110 §15.3.5, §15.4.5), HEAD has none sent.
        let hasContent = response.status != 204 && response.status != 304
        var body = hasContent ? response.body : []
        encoder.reset()
        if !encoder.addResponseHead(response, contentLength: hasContent ? body.count : nil) {
            encoder.reset()
            _ = encoder.addResponseHead(HTTP2Response(status: 500), contentLength: 0)
            body = []
        }
        if stream.isHead { body = [] }
        stream.responseBody = body
        stream.responseSent = 0
        var provider = NGHTTP2Session.dataProvider
        let result = encoder.withFields { fields, count in
            if body.isEmpty {
                nghttp2_submit_response(session.pointer, stream.id, fields, count, nil)
            } else {
                nghttp2_submit_response(session.pointer, stream.id, fields, count, &provider)
            }
        }
        if result != 0 {
            // The client would wait for this answer: the stream is reset instead.
            let error = NGHTTP2Error(code: result, operation: "nghttp2_submit_response")
            report(.streamReset(peer: peerDescription, stream: stream.id, reason: "\(error)"))
            actions.append(.reset(stream: stream.id, errorCode: HTTP2ErrorCode.internalError))
        }
    }
}

extension NGHTTP2Session {
    /// GOAWAY naming the last stream taken (the ones open still finish), with `goAway`'s
    /// error code and debug data.
    func goAway(_ goAway: HTTP2GoAway) throws(NGHTTP2Error) {
        let result = goAway.debugData.withUnsafeBufferPointer { data in
            nghttp2_submit_goaway(
                pointer, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(pointer),
                goAway.errorCode, data.baseAddress, data.count)
        }
        try NGHTTP2Error.check(result, "nghttp2_submit_goaway")
    }
}
