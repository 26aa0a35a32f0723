import NIOCore
import NIOHTTP1
import RPCCore
import Web

/// HTTP/JSON calls on an HTTP/1.1 connection (behind NIOHTTP1's server pipeline, whose
/// pipelining handler hands over one request at a time and holds the next until the
/// response before it has ended: pipelined requests are answered in order).
///
/// Each request is read whole (up to `maxReceiveMessageSize`, else 413 and the connection
/// closes), checked as on HTTP/2 (`RequestHeadParser.finishJSON`: route, POST, headers as
/// metadata, `grpc-timeout`), then runs as a call of its method; the call's outcome is
/// written as on HTTP/2 (see `ServerConnectionHandler+JSON`), a stream with chunked
/// transfer encoding, one line flushed per message. `Expect: 100-continue` is answered
/// with 100 once the request is known to be acceptable. Keep-alive as the client asks.
/// With `NIOServerConfig.web`, also what a browser asks for: static files, GET of the
/// methods and server-sent events (see `HTTP1JSONConnection+Web`).
///
/// Invariants: everything runs on the channel's event loop; `active` is the one call in
/// progress, and what its handler sends is ignored once its response has ended (deadline,
/// closed connection). The state for the next request is reset *before* a response's end
/// is written: writing it can hand over the next pipelined request at once.
final class HTTP1JSONConnection: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Receiving {
        case idle
        /// A call, once its body is complete.
        case call(RequestHead, body: [UInt8])
        /// Answered with `RequestRejection` once the request has ended (its body is dropped).
        case refused(RequestRejection)
        /// Answered already; the rest of the request is dropped and the connection closes.
        case discarding
        /// A static file's answer, written once the request has ended.
        case file(StaticAnswer)
    }

    let config: NIOServerConfig
    private let calls: InboundQueue<ServerStream>
    private let routes: JSONRoutes
    private(set) var context: ChannelHandlerContext?
    private var remotePeer = "unknown"
    private var receiving = Receiving.idle
    private(set) var version = HTTPVersion.http1_1
    var keepAlive = true

    /// The call whose response is being written.
    private(set) var active: HTTP1JSONStream?
    var headSent = false
    private var heldMetadata = Metadata()
    private var deadlineTimer: Scheduled<Void>?
    /// The request asked for server-sent events (`WebConfig`): the response is an event
    /// stream from the start of its call.
    var eventStream = false
    /// Event streams: the next keepalive check, and when the stream last said something.
    var keepaliveTimer: Scheduled<Void>?
    var lastSent = NIODeadline.now()
    /// Armed between requests (see `NIOServerConfig.idleTimeout`).
    private var idle = IdleTimer()

    init(config: NIOServerConfig, calls: InboundQueue<ServerStream>, routes: JSONRoutes) {
        self.config = config
        self.calls = calls
        self.routes = routes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        remotePeer = PeerAddress.describe(context.channel.remoteAddress)
        watchIdleness()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        endActiveCall(RPCError(code: .cancelled, message: "The connection closed"))
        idle.disarm()
        self.context = nil
    }

    /// Arms the idle timer when no request is in progress (none being received, none being
    /// answered: an event stream is a request in progress), disarms it otherwise.
    private func watchIdleness() {
        guard let context else { return }
        guard active == nil, case .idle = receiving else {
            idle.disarm()
            return
        }
        let channel = context.channel
        let (timeout, events, peer) = (config.idleTimeout, config.events, remotePeer)
        idle.arm(timeout, on: context.eventLoop) {
            if let timeout { events?(.idleClosed(peer: peer, after: timeout)) }
            channel.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        endActiveCall(RPCError(code: .cancelled, message: "The connection closed"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Stops taking requests: NIOHTTP1 closes the connection now if it is idle, else after
    /// the response in progress (with `connection: close`).
    func beginGracefulShutdown() {
        context?.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): received(head)
        case .body(var bytes): received(&bytes)
        case .end: requestEnded()
        }
    }

    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "expect", "te",
        "content-length",
    ]

    private func received(_ head: HTTPRequestHead) {
        idle.disarm()
        version = head.version
        keepAlive = head.isKeepAlive
        eventStream = false
        var method = head.method.rawValue
        var query: [UInt8] = []
        if let web = config.web {
            if web.staticFiles.claims(head.uri) {
                // Every If-None-Match field line: together they are one list.
                let ifNoneMatch = head.headers["if-none-match"]
                receiving = .file(
                    web.staticFiles.answer(
                        method: method, target: head.uri,
                        ifNoneMatch: ifNoneMatch.isEmpty ? nil : ifNoneMatch.joined(separator: ",")))
                return
            }
            if head.method == .GET,
                routes.resolve(head.uri) ?? DeviceScope.splitJSONPath(head.uri).flatMap({ routes.resolve($0.route) })
                    != nil
            {
                guard let body = BrowserRequest.jsonParameter(head.uri) else {
                    receiving = .refused(
                        RequestRejection(
                            httpStatus: 400,
                            status: Status(code: .invalidArgument, message: "json: not valid URL encoding"),
                            format: .json))
                    return
                }
                query = body
                method = "POST"  // what the method's route takes; the query is its body
            }
            eventStream = BrowserRequest.acceptsEventStream(head.headers[canonicalForm: "accept"].map(String.init))
        }
        var parser = RequestHeadParser(maxHeaderListSize: config.http2.maxHeaderListSize)
        parser.add(name: ":method", value: method)
        parser.add(name: ":path", value: head.uri)
        for (name, value) in head.headers {
            let name = name.lowercased()
            if !Self.hopByHop.contains(name) { parser.add(name: name, value: value) }
        }
        let expectsContinue = head.headers[canonicalForm: "expect"].contains { $0.lowercased() == "100-continue" }
        switch parser.finishJSON(routes) {
        case .failure(let rejection):
            if expectsContinue {
                // The client waits for a word before it sends its body: the final answer now,
                // and the connection closes (what follows may or may not be that body).
                answerEarly(rejection)
            } else {
                receiving = .refused(rejection)
            }
        case .success(let requestHead):
            if let length = head.headers.first(name: "content-length").flatMap(Int.init),
                length > config.maxReceiveMessageSize
            {
                answerEarly(tooLarge)
                return
            }
            receiving = .call(requestHead, body: query)
            if expectsContinue {
                context?.writeAndFlush(
                    wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .continue))), promise: nil)
            }
        }
    }

    private var tooLarge: RequestRejection {
        RequestRejection(
            httpStatus: 413,
            status: Status(
                code: .resourceExhausted, message: "Request body larger than \(config.maxReceiveMessageSize) bytes"),
            format: .json)
    }

    private func received(_ bytes: inout ByteBuffer) {
        guard case .call(let head, var body) = receiving else { return }
        receiving = .idle  // the body is uniquely referenced while it grows
        guard body.count + bytes.readableBytes <= config.maxReceiveMessageSize else {
            answerEarly(tooLarge)
            return
        }
        body.append(contentsOf: bytes.readableBytesView)
        receiving = .call(head, body: body)
    }

    private func requestEnded() {
        let state = receiving
        receiving = .idle
        switch state {
        case .idle, .discarding:
            break
        case .file(let answer):
            writeStatic(answer)
        case .refused(let rejection):
            writeError(
                rejection.status, httpStatus: rejection.jsonHTTPStatus, metadata: Metadata(),
                headersOnly: rejection.headersOnly)
        case .call(let head, let body):
            start(head, body: body)
        }
    }

    /// Answers before the request has ended; the rest of it is dropped and the connection
    /// closes after the answer.
    private func answerEarly(_ rejection: RequestRejection) {
        receiving = .discarding
        keepAlive = false
        writeError(rejection.status, httpStatus: rejection.jsonHTTPStatus, metadata: Metadata())
    }

    private func start(_ head: RequestHead, body: [UInt8]) {
        guard let context else { return }
        let stream = HTTP1JSONStream(
            head: head, remotePeer: remotePeer, config: config,
            connection: NIOLoopBound(self, eventLoop: context.eventLoop), eventLoop: context.eventLoop)
        active = stream
        headSent = false
        heldMetadata = Metadata()
        if eventStream { beginEventStream(stream) }
        stream.pushRequest(body, bytes: body.count)
        stream.finishRequests()
        if let timeout = head.timeout {
            deadlineTimer = context.eventLoop.assumeIsolated().scheduleTask(
                in: .nanoseconds(timeout.nanosecondsClamped)
            ) {
                [self] in
                guard active === stream else { return }
                deadlineTimer = nil
                let status = Status(code: .deadlineExceeded, message: "Deadline exceeded")
                finish(status, Metadata())
                stream.abandon(RPCError(status: status))
            }
        }
        calls.push(stream)
    }

    // MARK: Responses (from the call, through `HTTP1JSONStream`)

    func apply(_ part: RPCResponsePart, from stream: HTTP1JSONStream, flush: Bool) {
        guard active === stream, let context else { return }
        switch part {
        case .metadata(let metadata):
            if !headSent { heldMetadata = metadata }
        case .message(let bytes):
            if !headSent {
                // HTTP/1.0 has no chunked encoding: the body ends with the connection.
                if version.minor == 0 { keepAlive = false }
                writeHead(status: 200, contentType: "application/x-ndjson", metadata: heldMetadata, contentLength: nil)
            }
            var buffer: ByteBuffer
            if eventStream {
                buffer = context.channel.allocator.buffer(bytes: EventStreamFraming.data(bytes))
                lastSent = .now()
            } else {
                buffer = context.channel.allocator.buffer(capacity: bytes.count + 1)
                buffer.writeBytes(bytes)
                buffer.writeInteger(UInt8(ascii: "\n"))
            }
            // What the stream reserved for the message (`HTTP1JSONStream.write`), whatever its framing.
            let promise = context.eventLoop.makePromise(of: Void.self)
            let count = bytes.count + 1
            promise.futureResult.whenComplete { _ in stream.releaseOutbound(count) }
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: promise)
            if flush { context.flush() }
        case .status(let status, let trailers):
            finish(status, trailers)
        }
    }

    func applySingle(metadata: Metadata, message: [UInt8], trailers: Metadata, from stream: HTTP1JSONStream) {
        guard active === stream, let context else { return }
        if eventStream {
            endEventStream(with: message)
            return
        }
        guard !headSent else { return }
        var fields = metadata
        fields.append(contentsOf: trailers)
        writeHead(status: 200, contentType: "application/json", metadata: fields, contentLength: message.count)
        var buffer = context.channel.allocator.buffer(capacity: message.count)
        buffer.writeBytes(message)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        writeEnd()
    }

    func flush() {
        context?.flush()
    }

    /// The call's outcome, as the end of its response.
    private func finish(_ status: Status, _ trailers: Metadata) {
        guard let context else { return }
        if headSent {
            if status.code != .ok {
                let details = config.errorDetailsJSON?(trailers)
                let line =
                    eventStream
                    ? EventStreamFraming.error(status, details: details)
                    : JSONErrorBody.streamLine(status, details: details)
                context.write(
                    wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: line)))), promise: nil)
            }
            writeEnd()
        } else if status.code == .ok {
            var fields = heldMetadata
            fields.append(contentsOf: trailers)
            writeHead(status: 200, contentType: "application/x-ndjson", metadata: fields, contentLength: 0)
            writeEnd()
        } else {
            writeError(status, httpStatus: status.code.httpStatus, metadata: trailers)
        }
    }

    private func writeError(_ status: Status, httpStatus: Int, metadata: Metadata, headersOnly: Bool = false) {
        guard let context else { return }
        let body = JSONErrorBody.object(status, details: config.errorDetailsJSON?(metadata))
        writeHead(status: httpStatus, contentType: "application/json", metadata: metadata, contentLength: body.count)
        if !headersOnly {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        writeEnd()
    }

    func writeHead(
        status: Int, contentType: String, metadata: Metadata, contentLength: Int?, extra: [(String, String)] = []
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: contentType)
        if let contentLength { headers.add(name: "content-length", value: String(contentLength)) }
        if status == 405 { headers.add(name: "allow", value: config.web == nil ? "POST" : "GET, POST") }
        headers.add(contentsOf: extra)
        if !keepAlive {
            headers.add(name: "connection", value: "close")
        } else if version.minor == 0 {
            headers.add(name: "connection", value: "keep-alive")
        }
        for entry in metadata where MetadataWireRules.isSendable(entry) {
            switch entry.value {
            case .string(let value): headers.add(name: entry.key, value: value)
            case .binary(let value): headers.add(name: entry.key, value: Base64.encode(value))
            }
        }
        headSent = true
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context?.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    /// Ends the response in progress; the connection closes after it unless kept alive.
    func writeEnd() {
        guard let context else { return }
        let close = !keepAlive
        // Reset first: writing the end can hand over the next pipelined request at once.
        active = nil
        headSent = false
        heldMetadata = Metadata()
        deadlineTimer?.cancel()
        deadlineTimer = nil
        eventStream = false
        keepaliveTimer?.cancel()
        keepaliveTimer = nil
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if close {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
        }
        watchIdleness()
    }

    private func endActiveCall(_ error: RPCError) {
        deadlineTimer?.cancel()
        deadlineTimer = nil
        keepaliveTimer?.cancel()
        keepaliveTimer = nil
        if let active {
            self.active = nil
            active.abandon(error)
        }
    }
}

/// One HTTP/1.1 JSON call as its handler sees it: its response parts travel to the
/// connection's event loop; a streamed message counts against the call's response budget
/// until the socket has taken it.
final class HTTP1JSONStream: ServerStream, @unchecked Sendable {
    // Unchecked: `connection` is only touched on `eventLoop` (NIOLoopBound checks it).
    private let connection: NIOLoopBound<HTTP1JSONConnection>
    private let eventLoop: any EventLoop

    init(
        head: RequestHead, remotePeer: String, config: NIOServerConfig,
        connection: NIOLoopBound<HTTP1JSONConnection>, eventLoop: any EventLoop
    ) {
        self.connection = connection
        self.eventLoop = eventLoop
        super.init(
            head: head, remotePeer: remotePeer, eagerAllowance: .max,
            highWatermark: config.http2.outboundHighWatermark, lowWatermark: config.http2.outboundLowWatermark)
    }

    override func write(_ part: RPCResponsePart, flush: Bool) async throws {
        if case .message(let bytes) = part {
            if let abandoned = abandonment { throw abandoned }
            deliver(part, flush: flush)
            try await reserveOutbound(bytes.count + 1) { [connection, eventLoop] in
                eventLoop.execute { connection.value.flush() }
            }
        } else {
            deliver(part, flush: flush)
        }
    }

    override func send(_ part: RPCResponsePart, flush: Bool) {
        deliver(part, flush: flush)
    }

    override func sendSingleResponse(metadata: Metadata, message: [UInt8], trailers: Metadata) {
        let connection = self.connection
        eventLoop.execute { [self] in
            connection.value.applySingle(metadata: metadata, message: message, trailers: trailers, from: self)
        }
    }

    private func deliver(_ part: RPCResponsePart, flush: Bool) {
        let connection = self.connection
        eventLoop.execute { [self] in connection.value.apply(part, from: self, flush: flush) }
    }
}
