import CNghttp2
package import NIOCore
import NIOPosix
import NIOSSL
import RPCNIO

/// One HTTP/2 request and its answer, over h2c (prior knowledge) or TLS (ALPN h2): what
/// `glimpse push` needs to talk to the APNs-compatible endpoint. Built on the project's own
/// nghttp2 pieces (RPCNIO's `NGHTTP2Session` and `HeaderEncoder`) under SwiftNIO, with
/// NIOSSL for TLS; the gRPC transport itself only speaks gRPC.
package struct H2Request: Sendable {
    package var method = "POST"
    package var scheme = "http"
    package var path: String
    package var authority: String
    package var headers: [Header] = []
    package var body: [UInt8] = []

    package init(path: String, authority: String, body: [UInt8] = []) {
        self.path = path
        self.authority = authority
        self.body = body
    }

    package struct Header: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}

package struct H2Response: Sendable {
    package var status: Int
    package var headers: [H2Request.Header]
    package var body: [UInt8]

    package func header(_ name: String) -> String? { headers.last(where: { $0.name == name })?.value }
}

package enum H2Client {
    package struct TLS: Sendable {
        /// PEM file of the CA to trust (default: the system's roots).
        package var caFile: String?

        package init(caFile: String?) { self.caFile = caFile }
    }

    package enum Failure: Error, CustomStringConvertible {
        case connect(String)
        /// The CA file to trust does not hold a PEM certificate.
        case unreadableCA(String)
        case protocolError(String)
        case timedOut
        case closedEarly

        package var description: String {
            switch self {
            case .connect(let reason): reason
            case .unreadableCA(let reason): reason
            case .protocolError(let reason): "HTTP/2: \(reason)"
            case .timedOut: "no answer in time"
            case .closedEarly: "the connection closed before the answer"
            }
        }
    }

    /// Sends `request` to `host`:`port` and returns the answer.
    package static func send(
        _ request: H2Request, host: String, port: Int, tls: TLS?, timeout: TimeAmount = .seconds(30)
    ) async throws -> H2Response {
        let group = MultiThreadedEventLoopGroup.singleton
        let sslContext: NIOSSLContext?
        if let tls {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.applicationProtocols = ["h2"]
            if let caFile = tls.caFile {
                do {
                    configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
                } catch {
                    throw Failure.unreadableCA("\(caFile): cannot read a PEM certificate (\(error))")
                }
            }
            sslContext = try NIOSSLContext(configuration: configuration)
        } else {
            sslContext = nil
        }
        let serverName: String? = isIPAddress(host) ? nil : host
        let promise = group.next().makePromise(of: H2Response.self)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        H2RequestHandler(request: request, promise: promise, timeout: timeout))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            promise.fail(Failure.connect("\(error)"))
            throw Failure.connect("\(error)")
        }
        do {
            let response = try await promise.futureResult.get()
            channel.close(promise: nil)
            return response
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
    }
}

/// Sends the request on stream 1 and completes `promise` with the answer.
final class H2RequestHandler: ChannelInboundHandler, NGHTTP2SessionDelegate {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let request: H2Request
    private let promise: EventLoopPromise<H2Response>
    private let timeout: TimeAmount
    private var session: NGHTTP2Session?
    private var streamID: Int32 = -1
    private var pending: ArraySlice<UInt8>
    private var status = 0
    private var headers: [H2Request.Header] = []
    private var body: [UInt8] = []
    private var unconsumed = 0
    private var closedCode: UInt32?
    private var finished = false
    private var timer: Scheduled<Void>?

    init(request: H2Request, promise: EventLoopPromise<H2Response>, timeout: TimeAmount) {
        self.request = request
        self.promise = promise
        self.timeout = timeout
        pending = request.body[...]
    }

    func channelActive(context: ChannelHandlerContext) {
        do {
            let session = try NGHTTP2Session(options: .init(role: .client, resetRateLimit: nil), delegate: self)
            self.session = session
            try session.start(.defaults, connectionWindow: 1 << 20, isClient: true)
            var encoder = HeaderEncoder()
            encoder.add(name: ":method", value: request.method)
            encoder.add(name: ":scheme", value: request.scheme)
            encoder.add(name: ":path", value: request.path)
            encoder.add(name: ":authority", value: request.authority)
            for header in request.headers { encoder.add(name: header.name, value: header.value) }
            var provider = NGHTTP2Session.dataProvider
            let hasBody = !request.body.isEmpty
            let id = encoder.withFields { fields, count in
                hasBody
                    ? nghttp2_submit_request(session.pointer, nil, fields, count, &provider, nil)
                    : nghttp2_submit_request(session.pointer, nil, fields, count, nil, nil)
            }
            guard id > 0 else { throw H2Client.Failure.protocolError("could not open a stream (\(id))") }
            streamID = id
        } catch {
            fail(error, context)
            return
        }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            fail(H2Client.Failure.timedOut, context)
        }
        flush(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session, !finished else { return }
        let buffer = unwrapInboundIn(data)
        do {
            try session.receive(buffer)
        } catch {
            fail(H2Client.Failure.protocolError("\(error)"), context)
            return
        }
        if unconsumed > 0 {
            session.consumeStream(streamID, bytes: unconsumed)
            session.consumeConnection(bytes: unconsumed)
            unconsumed = 0
        }
        if let closedCode {
            finished = true
            timer?.cancel()
            if status == 0 {
                promise.fail(H2Client.Failure.protocolError("the stream was reset (error code \(closedCode))"))
            } else {
                promise.succeed(H2Response(status: status, headers: headers, body: body))
            }
            try? session.finalGoAway()  // a courtesy: the connection closes next either way
            flush(context)
            context.close(promise: nil)
            return
        }
        flush(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        if !finished {
            finished = true
            promise.fail(H2Client.Failure.closedEarly)
        }
        session?.close()
        session = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if finished { return }  // e.g. an unclean TLS shutdown after the answer
        fail(error, context)
    }

    private func fail(_ error: any Error, _ context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        timer?.cancel()
        promise.fail(error)
        context.close(promise: nil)
    }

    private func flush(_ context: ChannelHandlerContext) {
        guard let session else { return }
        var buffer = context.channel.allocator.buffer(capacity: 1024)
        do {
            try session.drain(into: &buffer)
        } catch {
            fail(H2Client.Failure.protocolError("\(error)"), context)
            return
        }
        if buffer.readableBytes > 0 { context.writeAndFlush(wrapOutboundOut(buffer), promise: nil) }
    }

    // MARK: nghttp2 callbacks (NGHTTP2SessionDelegate)

    func onHeader(
        _ frame: UnsafePointer<nghttp2_frame>, _ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer
    ) -> Int32 {
        guard frame.pointee.hd.stream_id == streamID else { return 0 }
        let name = String(decoding: name, as: UTF8.self)
        let value = String(decoding: value, as: UTF8.self)
        if name == ":status" {
            status = Int(value) ?? 0
        } else {
            headers.append(H2Request.Header(name: name, value: value))
        }
        return 0
    }

    func onDataChunk(_ stream: Int32, _ data: UnsafeRawBufferPointer) -> Int32 {
        unconsumed += data.count
        if stream == streamID { body.append(contentsOf: data) }
        return 0
    }

    func onStreamClosed(_ stream: Int32, errorCode: UInt32) -> Int32 {
        if stream == streamID { closedCode = errorCode }
        return 0
    }

    func readData(
        _ stream: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int, _ flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        let count = min(length, pending.count)
        pending.withUnsafeBufferPointer { source in
            if count > 0 { buffer.update(from: source.baseAddress!, count: count) }
        }
        pending = pending.dropFirst(count)
        if pending.isEmpty { flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
        return count
    }

    // What a one-request client has no use for.
    func onBeginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 { 0 }
    func onFrameReceived(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 { 0 }
    func onFrameSent(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 { 0 }
    func onFrameNotSent(_ frame: UnsafePointer<nghttp2_frame>, errorCode: Int32) -> Int32 { 0 }
}
