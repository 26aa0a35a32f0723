import NIOCore
import NIOHTTP1
import RPCCore
import Web

/// What a browser gets on an HTTP/1.1 connection (`NIOServerConfig.web`): static files, and
/// a JSON call's response as server-sent events.
///
/// An event stream's head (`200`, `text/event-stream`, `cache-control: no-cache`) goes out
/// as its call starts, so `EventSource` opens before the first event; each message is
/// then one event, flushed as written; a single response (a unary method) is one event; a
/// status other than OK is the `error` event; the response then ends. While nothing is
/// sent for `eventStreamKeepalive`, a comment is. The client closing the connection ends
/// the call (`channelInactive` abandons it, which cancels its handler).
extension HTTP1JSONConnection {
    func writeStatic(_ answer: StaticAnswer) {
        guard let context else { return }
        var headers = HTTPHeaders(answer.headers)
        if let length = answer.contentLength { headers.add(name: "content-length", value: String(length)) }
        if !keepAlive {
            headers.add(name: "connection", value: "close")
        } else if version.minor == 0 {
            headers.add(name: "connection", value: "keep-alive")
        }
        headSent = true
        let head = HTTPResponseHead(
            version: version, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !answer.body.isEmpty {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        }
        writeEnd()
    }

    /// The event stream's head, at the start of its call, and the first keepalive check.
    func beginEventStream(_ stream: HTTP1JSONStream) {
        guard let context else { return }
        if version.minor == 0 { keepAlive = false }  // no chunked encoding: the body ends with the connection
        writeHead(
            status: 200, contentType: EventStreamFraming.contentType, metadata: Metadata(), contentLength: nil,
            extra: [("cache-control", "no-cache")])
        context.flush()
        lastSent = .now()
        scheduleKeepalive(for: stream)
    }

    /// A single response as the one event of the stream, and its end.
    func endEventStream(with message: [UInt8]) {
        guard let context else { return }
        context.write(
            wrapOutboundOut(
                .body(.byteBuffer(context.channel.allocator.buffer(bytes: EventStreamFraming.data(message))))),
            promise: nil)
        writeEnd()
    }

    private func scheduleKeepalive(for stream: HTTP1JSONStream) {
        guard let context, let interval = config.web?.eventStreamKeepalive else { return }
        let due = lastSent + .nanoseconds(interval.nanosecondsClamped)
        keepaliveTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            guard active === stream, eventStream, let context = self.context else { return }
            if NIODeadline.now() >= lastSent + .nanoseconds(interval.nanosecondsClamped) {
                context.writeAndFlush(
                    wrapOutboundOut(
                        .body(.byteBuffer(context.channel.allocator.buffer(bytes: EventStreamFraming.keepalive)))),
                    promise: nil)
                lastSent = .now()
            }
            scheduleKeepalive(for: stream)
        }
    }
}
