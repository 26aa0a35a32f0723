import CNghttp2
import NIOCore
import RPCCore

/// HTTP/JSON answers on an HTTP/2 connection: a call whose request was not gRPC (see
/// `RequestHeadParser.finishJSON`) gets a plain HTTP response.
///
/// - A single response (unary): `200`, `application/json`, the message's JSON as the body.
/// - A stream (server streaming): `200`, `application/x-ndjson`, one JSON message per line,
///   each in DATA as it is written; an error after the first line is a last line
///   `{"error":{…}}`. No message and OK: an empty body.
/// - A status other than OK before any message: the HTTP status its code maps to
///   (`StatusCode.httpStatus`, or the rejection's own), `application/json`, and
///   `{"code":…,"status":…,"message":…}`.
///
/// The stream ends with the body (END_STREAM on the last DATA): no trailers. Initial
/// metadata goes out as header fields, and so do a unary call's trailing metadata and an
/// error's metadata.
extension ServerConnectionHandler {
    func applyJSON(_ part: RPCResponsePart, to stream: ServerStreamState, prepaid: Bool) {
        switch part {
        case .metadata(let metadata):
            if !stream.headersSent { stream.jsonMetadata = metadata }
        case .message(let bytes):
            if !stream.headersSent {
                sendJSONHeaders(
                    stream, httpStatus: 200, contentType: "application/x-ndjson",
                    metadata: stream.jsonMetadata, contentLength: nil, withBody: true)
            }
            // The writer's room covers the line and its newline.
            queue(bytes, on: stream, prepaid: prepaid)
            queue(Self.newline, on: stream, prepaid: prepaid)
            resumeIfDeferred(stream)
        case .status(let status, let trailers):
            stream.statusQueued = true
            stream.deadlineTimer?.cancel()
            stream.deadlineTimer = nil
            finishJSON(stream, status, trailers, httpStatus: status.code.httpStatus)
        }
    }

    func applyJSONSingle(_ metadata: Metadata, _ message: [UInt8], _ trailers: Metadata, to stream: ServerStreamState) {
        stream.statusQueued = true
        stream.deadlineTimer?.cancel()
        stream.deadlineTimer = nil
        guard !stream.headersSent else { return }
        var fields = metadata
        fields.append(contentsOf: trailers)
        sendJSONHeaders(
            stream, httpStatus: 200, contentType: "application/json", metadata: fields,
            contentLength: message.count, withBody: true)
        queue(message, on: stream, prepaid: false)
        stream.pendingTrailers = (.ok, Metadata())
        resumeIfDeferred(stream)
    }

    /// A rejection, an oversized body or an expired deadline (`answer`).
    func answerJSON(_ stream: ServerStreamState, _ rejection: RequestRejection) {
        if rejection.headersOnly, !stream.headersSent {
            sendJSONHeaders(
                stream, httpStatus: rejection.jsonHTTPStatus, contentType: "application/json",
                metadata: Metadata(), contentLength: nil, withBody: false)
            return
        }
        finishJSON(stream, rejection.status, Metadata(), httpStatus: rejection.jsonHTTPStatus)
    }

    private func finishJSON(_ stream: ServerStreamState, _ status: Status, _ trailers: Metadata, httpStatus: Int) {
        if stream.headersSent {
            if status.code != .ok {
                queue(
                    JSONErrorBody.streamLine(status, details: config.errorDetailsJSON?(trailers)), on: stream,
                    prepaid: false)
            }
            stream.pendingTrailers = (status, trailers)  // read as "end the stream after the outbox"
            resumeIfDeferred(stream)
            return
        }
        if status.code == .ok {
            var fields = stream.jsonMetadata
            fields.append(contentsOf: trailers)
            sendJSONHeaders(
                stream, httpStatus: 200, contentType: "application/x-ndjson", metadata: fields,
                contentLength: 0, withBody: false)
            return
        }
        let body = JSONErrorBody.object(status, details: config.errorDetailsJSON?(trailers))
        sendJSONHeaders(
            stream, httpStatus: httpStatus, contentType: "application/json", metadata: trailers,
            contentLength: body.count, withBody: true)
        queue(body, on: stream, prepaid: false)
        stream.pendingTrailers = (status, trailers)
        resumeIfDeferred(stream)
    }

    private func sendJSONHeaders(
        _ stream: ServerStreamState, httpStatus: Int, contentType: StaticString, metadata: Metadata,
        contentLength: Int?, withBody: Bool
    ) {
        guard let session else { return }
        encoder.reset()
        encoder.add(":status", String(httpStatus))
        encoder.addStatic("content-type", contentType)
        if let contentLength { encoder.add("content-length", String(contentLength)) }
        if httpStatus == 405 { encoder.addStatic("allow", "POST") }
        encoder.add(metadata)
        var provider = NGHTTP2Session.dataProvider
        let result = encoder.withFields { fields, count in
            withBody
                ? nghttp2_submit_response(session.pointer, stream.id, fields, count, &provider)
                : nghttp2_submit_response(session.pointer, stream.id, fields, count, nil)
        }
        stream.headersSent = true
        if result != 0 { streamSubmitFailed(stream, NGHTTP2Error(code: result, operation: "nghttp2_submit_response")) }
    }

    static let newline: [UInt8] = [0x0A]
}
