package import NIOCore
import NIOHTTP1
import NIOPosix
package import Prometheus
package import RPCNIO

/// Prometheus text format over plain HTTP/1.1: `GET /metrics` answers the registry's
/// samples; any other path is 404, any other method 405.
package final class MetricsEndpoint: Sendable {
    package let registry: PrometheusCollectorRegistry
    private let channel: any Channel

    /// Binds now (port 0 picks a free one), so the port is known before the service runs.
    /// A connection silent for `idleTimeout` is closed (nil: never); a failed accept (out of
    /// file descriptors) makes the listener wait before the next.
    package static func bind(
        host: String, port: Int, registry: PrometheusCollectorRegistry,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        idleTimeout: Duration? = NIOServerConfig.defaultIdleTimeout, events: ConnectionEventSink? = nil
    ) async throws -> MetricsEndpoint {
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { AcceptBackoff.install(on: $0, events: events) }
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let idleTimeout {
                        // A scrape is one request and its answer: silence for the whole timeout is idle.
                        try channel.pipeline.syncOperations.addHandler(
                            IdleStateHandler(allTimeout: .nanoseconds(idleTimeout.nanosecondsClamped)))
                        try channel.pipeline.syncOperations.addHandler(CloseWhenIdle())
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler(registry: registry))
                }
            }
            .bind(host: host, port: port).get()
        return MetricsEndpoint(registry: registry, channel: channel)
    }

    private init(registry: PrometheusCollectorRegistry, channel: any Channel) {
        self.registry = registry
        self.channel = channel
    }

    package var port: Int { channel.localAddress?.port ?? 0 }

    /// Stops listening; a scrape under way finishes.
    package func close() async {
        try? await channel.close()
    }
}

/// Closes the connection on NIO's idle event.
final class CloseWhenIdle: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Answers each request on a connection in turn.
final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    private var head: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.uri
        let (status, contentType, body): (HTTPResponseStatus, String, [UInt8])
        if path != "/metrics" {
            (status, contentType, body) = (.notFound, "text/plain", Array("not found: try /metrics\n".utf8))
        } else if request.method != .GET && request.method != .HEAD {
            (status, contentType, body) = (.methodNotAllowed, "text/plain", Array("GET /metrics\n".utf8))
        } else {
            (status, contentType, body) = (.ok, "text/plain; version=0.0.4; charset=utf-8", registry.emitToBuffer())
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: "\(body.count)")
        let keepAlive = request.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
            promise: nil)
        if request.method != .HEAD {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            done.whenComplete { _ in loopBound.value.close(promise: nil) }
        }
    }
}
