package import NIOCore
import NIOHTTP1
package import RPCCore

/// The first handler of a connection on a transport that serves JSON too: it reads until
/// it can tell the HTTP/2 client preface (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, what gRPC
/// and every h2c client with prior knowledge send first) from anything else, which is
/// taken for HTTP/1.1. It then puts that protocol's handlers in its place, hands them the
/// bytes read so far, and leaves the pipeline.
///
/// It stays the transport's handle on the connection (`beginGracefulShutdown`), whatever
/// it became. Owned by the channel's event loop. Package-visible for the fuzz target
/// (Fuzz/), which drives a connection's bytes through it on an embedded channel.
package final class ProtocolSniffer: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer

    enum Installed {
        case undecided
        case http2(ServerConnectionHandler)
        case http1(HTTP1JSONConnection)
    }

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    private let config: NIOServerConfig
    private let calls: InboundQueue<ServerStream>
    private let starter: LoopCallStarter?
    private let routes: JSONRoutes
    private var buffered: ByteBuffer?
    private(set) var installed = Installed.undecided
    private var shuttingDown = false
    /// A connection that says nothing (or not enough to tell) is closed after the idle timeout.
    private var idle = IdleTimer()

    /// Every call goes to `calls`.
    package convenience init(config: NIOServerConfig, calls: InboundQueue<ServerStream>, routes: JSONRoutes) {
        self.init(config: config, calls: calls, starter: nil, routes: routes)
    }

    /// HTTP/2 calls start through `starter` when there is one.
    init(config: NIOServerConfig, calls: InboundQueue<ServerStream>, starter: LoopCallStarter?, routes: JSONRoutes) {
        self.config = config
        self.calls = calls
        self.starter = starter
        self.routes = routes
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let (timeout, events) = (config.idleTimeout, config.events)
        idle.arm(timeout, on: context.eventLoop) {
            if let timeout { events?(.idleClosed(peer: PeerAddress.describe(channel.remoteAddress), after: timeout)) }
            channel.close(promise: nil)
        }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        idle.disarm()  // the protocol's handler keeps its own
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if var held = buffered.take() {
            held.writeBuffer(&bytes)
            bytes = held
        }
        let count = min(bytes.readableBytes, Self.preface.count)
        let isPreface = bytes.readableBytesView.prefix(count).elementsEqual(Self.preface.prefix(count))
        if isPreface, count < Self.preface.count {
            buffered = bytes  // the preface so far: wait for the rest
            return
        }
        do {
            if isPreface {
                let handler = ServerConnectionHandler(
                    config: config, calls: calls, starter: starter, jsonRoutes: routes)
                try context.pipeline.syncOperations.addHandler(handler)
                installed = .http2(handler)
            } else {
                try context.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                let handler = HTTP1JSONConnection(config: config, calls: calls, routes: routes)
                try context.pipeline.syncOperations.addHandler(handler)
                installed = .http1(handler)
            }
        } catch {
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(wrapInboundOut(bytes))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// On the event loop: a connection that has said nothing yet closes; one that did shuts
    /// down as its protocol does (GOAWAY; HTTP/1.1 closes once the response in progress is out).
    func beginGracefulShutdown(_ channel: any Channel) {
        switch installed {
        case .undecided: channel.close(promise: nil)
        case .http2(let handler): handler.beginGracefulShutdown()
        case .http1(let handler): handler.beginGracefulShutdown()
        }
    }
}
