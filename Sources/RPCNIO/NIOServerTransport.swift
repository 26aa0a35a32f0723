import NIOCore
import NIOPosix
import RPCCore
import Synchronization

/// gRPC over HTTP/2 (cleartext, prior knowledge), nghttp2 under SwiftNIO.
///
///     let transport = NIOServerTransport(host: "127.0.0.1", port: 50051)
///     let server = GRPCServer(transport: transport, services: [...])
///     try await server.serve()
///
/// Each connection's calls run in a task group of their own, inside `listen`'s group.
public final class NIOServerTransport: ServerTransport {
    public let host: String
    public let port: Int
    public let config: NIOServerConfig
    private let group: any EventLoopGroup
    private let bound: EventLoopPromise<SocketAddress>
    private let state = Mutex(State())

    private struct State {
        var serverChannel: (any Channel)?
        var connections: [ObjectIdentifier: ServerConnectionHandle] = [:]
        var shuttingDown = false
    }

    /// - Parameter group: event loops for the listener and its connections (default: NIO's
    ///   shared singleton group).
    public init(host: String, port: Int, config: NIOServerConfig = .defaults,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.host = host
        self.port = port
        self.config = config
        self.group = group
        self.bound = group.any().makePromise(of: SocketAddress.self)
    }

    /// The address the listener is bound to (waits until it is); useful with port 0.
    public func listeningAddress() async throws -> SocketAddress {
        try await bound.futureResult.get()
    }

    public func listen(_ handler: @escaping @Sendable (ServerStream) async -> Void) async throws {
        let accepted = InboundQueue<ServerConnectionHandle>()
        let channel: any Channel
        do {
            channel = try await bootstrap(accepted).bind(host: host, port: port).get()
        } catch {
            bound.fail(error)
            throw error
        }
        let stopNow = state.withLock { state -> Bool in
            state.serverChannel = channel
            return state.shuttingDown
        }
        bound.succeed(channel.localAddress!)
        if stopNow { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in accepted.finish() }

        await withDiscardingTaskGroup { group in
            while let connection = try? await accepted.next() {
                group.addTask {
                    await withDiscardingTaskGroup { calls in
                        while let stream = try? await connection.calls.next() {
                            calls.addTask { await handler(stream) }
                        }
                    }
                    self.state.withLock { _ = $0.connections.removeValue(forKey: connection.id) }
                }
            }
        }
    }

    private func bootstrap(_ accepted: InboundQueue<ServerConnectionHandle>) -> ServerBootstrap {
        let config = self.config
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let calls = InboundQueue<ServerStream>()
                    let handler = ServerConnectionHandler(config: config, calls: calls)
                    try channel.pipeline.syncOperations.addHandler(handler)
                    let connection = ServerConnectionHandle(
                        channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop), calls: calls)
                    let shuttingDown = state.withLock { state in
                        state.connections[connection.id] = connection
                        return state.shuttingDown
                    }
                    if shuttingDown { handler.beginGracefulShutdown() }
                    accepted.push(connection)
                }
            }
    }

    /// Stops accepting; each connection gets GOAWAY and closes when its calls are done.
    public func beginGracefulShutdown() {
        let (channel, connections) = state.withLock { state in
            state.shuttingDown = true
            return (state.serverChannel, Array(state.connections.values))
        }
        channel?.close(promise: nil)
        for connection in connections { connection.beginGracefulShutdown() }
    }
}

/// A connection as the transport tracks it.
struct ServerConnectionHandle: Sendable {
    let channel: any Channel
    let handler: NIOLoopBound<ServerConnectionHandler>
    let calls: InboundQueue<ServerStream>

    var id: ObjectIdentifier { ObjectIdentifier(channel) }

    func beginGracefulShutdown() {
        let handler = self.handler
        channel.eventLoop.execute { handler.value.beginGracefulShutdown() }
    }
}
