public import NIOCore
public import NIOPosix
public import RPCCore
import Synchronization

/// gRPC over HTTP/2 (cleartext, prior knowledge), nghttp2 under SwiftNIO.
///
///     let transport = NIOServerTransport(host: "127.0.0.1", port: 50051)
///     let server = GRPCServer(transport: transport, services: [...])
///     try await server.serve()
///
/// With `jsonRoutes` (`RPCRouter.jsonRoutes`), the same port also serves HTTP/JSON: each
/// connection is HTTP/2 if it starts with the client preface (gRPC, and JSON requests on
/// the routes: any content type but `application/grpc`), HTTP/1.1 otherwise (JSON only).
/// See `ServerConnectionHandler+JSON` and `HTTP1JSONConnection` for what JSON calls answer.
///
/// HTTP/2 calls start on the event loop that read them, and go on off the loops once their
/// handler suspends (see `LoopCallStarter`); `listen` returns after the last one. HTTP/1.1
/// calls, and every call for a while after a slow pass on a loop (or all of them, without
/// `config.eventLoopCallLimit`), go through one queue instead, which wakes its
/// consumer once per read burst rather than once per call; the consumer takes what is
/// queued in one go, and the calls that came together share a task until one of them
/// suspends (see `CallDispatcher`).
public final class NIOServerTransport: ServerTransport {
    public let host: String
    public let port: Int
    public let config: NIOServerConfig
    /// The HTTP/JSON routes served beside gRPC (nil: gRPC only, HTTP/2 only).
    public let jsonRoutes: JSONRoutes?
    private let group: any EventLoopGroup
    private let handlerExecutor: (any TaskExecutor)?
    private let bound: EventLoopPromise<SocketAddress>
    private let calls = InboundQueue<ServerStream>()
    private let state = Mutex(State())

    /// Invariant: `calls` is finished exactly when the listener is closed and no
    /// connection is left, so `listen` returns after the last call of the last connection.
    private struct State {
        var serverChannel: (any Channel)?
        var listenerClosed = false
        var connections: [ObjectIdentifier: TrackedConnection] = [:]
        var shuttingDown = false

        var isDone: Bool { listenerClosed && connections.isEmpty }
    }

    /// - Parameters:
    ///   - group: event loops for the listener and its connections (default: NIO's shared
    ///     singleton group).
    ///   - handlerExecutor: where call handlers run (default: the global concurrent
    ///     executor). Never the I/O loops of `group`.
    ///   - jsonRoutes: serve these HTTP/JSON routes too (the router's `jsonRoutes`); nil or
    ///     empty: gRPC only.
    public init(
        host: String, port: Int, config: NIOServerConfig = .defaults,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        handlerExecutor: (any TaskExecutor)? = nil, jsonRoutes: JSONRoutes? = nil
    ) {
        self.host = host
        self.port = port
        self.config = config
        self.jsonRoutes = jsonRoutes.flatMap { $0.isEmpty ? nil : $0 }
        self.group = group
        self.handlerExecutor = handlerExecutor
        self.bound = group.any().makePromise(of: SocketAddress.self)
    }

    /// The address the listener is bound to (waits until it is); useful with port 0.
    public func listeningAddress() async throws -> SocketAddress {
        try await bound.futureResult.get()
    }

    public func listen(_ handler: @escaping @Sendable (ServerStream) async -> Void) async throws {
        let running = CallCount()
        let starter = config.eventLoopCallLimit.map { limit in
            LoopCallStarter(queue: calls, running: running, executor: handlerExecutor, limit: limit, handler: handler)
        }
        let channel: any Channel
        do {
            channel = try await bootstrap(starter).bind(host: host, port: port).get()
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
        channel.closeFuture.whenComplete { [self] _ in
            update { $0.listenerClosed = true }
        }

        let executor = handlerExecutor
        await withTaskExecutorPreference(executor) {
            await withDiscardingTaskGroup { group in
                // If `listen` is cancelled, every connection closes, which cancels the
                // calls outside the group too. Ends with the loop below.
                let listening = InboundQueue<Never>()
                group.addTask { [self] in
                    await withTaskCancellationHandler {
                        _ = try? await listening.next()
                    } onCancel: {
                        closeEverything()
                    }
                }
                var dispatcher = CallDispatcher(running: running, executor: executor)
                var waiting: [ServerStream] = []
                while true {
                    calls.pollAll(into: &waiting)
                    if waiting.isEmpty {
                        guard let stream = try? await calls.next() else { break }
                        dispatcher.resumed()
                        waiting.append(stream)
                        calls.pollAll(into: &waiting)
                    }
                    for start in stride(from: 0, to: waiting.count, by: CallBatch.maximumCount) {
                        let end = min(start + CallBatch.maximumCount, waiting.count)
                        dispatcher.start(CallBatch(waiting, start..<end), handler)
                    }
                    waiting.removeAll(keepingCapacity: true)
                }
                listening.finish()
            }
        }
        await running.waitForZero()
    }

    /// `listen` was cancelled: the listener and every connection close, which cancels
    /// every call in flight.
    private func closeEverything() {
        let (channel, connections) = state.withLock { state in
            state.shuttingDown = true
            return (state.serverChannel, Array(state.connections.values))
        }
        channel?.close(promise: nil)
        for connection in connections { connection.channel.close(promise: nil) }
        calls.finish()
    }

    private func bootstrap(_ starter: LoopCallStarter?) -> ServerBootstrap {
        let events = config.events
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { AcceptBackoff.install(on: $0, events: events) }
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try addConnection(channel, starter)
                }
            }
    }

    /// On the channel's event loop: its handler (HTTP/2 gRPC, or with JSON routes the
    /// sniffer that picks HTTP/2 or HTTP/1.1), and its place in `state`.
    private func addConnection(_ channel: any Channel, _ starter: LoopCallStarter?) throws {
        let connection: TrackedConnection
        let shutDownNow: () -> Void
        if jsonRoutes != nil || config.web != nil {
            let sniffer = ProtocolSniffer(
                config: config, calls: calls, starter: starter, routes: jsonRoutes ?? JSONRoutes())
            try channel.pipeline.syncOperations.addHandler(sniffer)
            let bound = NIOLoopBound(sniffer, eventLoop: channel.eventLoop)
            connection = TrackedConnection(channel: channel) { bound.value.beginGracefulShutdown(channel) }
            shutDownNow = { sniffer.beginGracefulShutdown(channel) }
        } else {
            let handler = ServerConnectionHandler(config: config, calls: calls, starter: starter)
            try channel.pipeline.syncOperations.addHandler(handler)
            let bound = NIOLoopBound(handler, eventLoop: channel.eventLoop)
            connection = TrackedConnection(channel: channel) { bound.value.beginGracefulShutdown() }
            shutDownNow = { handler.beginGracefulShutdown() }
        }
        let shuttingDown = state.withLock { state in
            state.connections[connection.id] = connection
            return state.shuttingDown
        }
        if shuttingDown { shutDownNow() }
        channel.closeFuture.whenComplete { [self] _ in
            update { _ = $0.connections.removeValue(forKey: connection.id) }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let done = state.withLock { state -> Bool in
            change(&state)
            return state.isDone
        }
        if done { calls.finish() }
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

/// A connection as this transport tracks it: its channel, and how to shut it down
/// gracefully (`shutDownOnLoop` runs on the channel's event loop).
private struct TrackedConnection: Sendable {
    let channel: any Channel
    let shutDownOnLoop: @Sendable () -> Void

    var id: ObjectIdentifier { ObjectIdentifier(channel) }

    func beginGracefulShutdown() {
        let shutDown = shutDownOnLoop
        channel.eventLoop.execute { shutDown() }
    }
}

/// A connection as a server tracks it (HTTP2Server).
package struct ServerConnectionHandle<Connection: NGHTTP2ServerConnection>: Sendable {
    package let channel: any Channel
    package let handler: NIOLoopBound<Connection>

    package init(channel: any Channel, handler: NIOLoopBound<Connection>) {
        self.channel = channel
        self.handler = handler
    }

    package var id: ObjectIdentifier { ObjectIdentifier(channel) }

    package func beginGracefulShutdown() {
        let handler = self.handler
        channel.eventLoop.execute { handler.value.beginGracefulShutdown() }
    }
}
