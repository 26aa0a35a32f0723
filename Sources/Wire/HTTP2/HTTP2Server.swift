package import NIOCore
import NIOPosix
import NIOSSL
import RPCCore
import RPCNIO
import Synchronization

/// A plain HTTP/2 server (not gRPC): nghttp2 under SwiftNIO, on cleartext (h2c, prior
/// knowledge) and TLS listeners.
///
///     let certificates = try LocalCertificateAuthority.prepare(in: "./.glimpse/tls")
///     let server = HTTP2Server(
///         listeners: [.cleartext(port: 0), .tls(port: 0, certificates: certificates.server)],
///         handler: HTTP2ClosureHandler { request in HTTP2Response(status: 200) })
///     try await server.run()   // elsewhere: try await server.listeningAddresses()
///
/// Each request runs its handler in a child task of `run` (an `HTTP2BatchHandler` gets one
/// task for the requests that arrived together); `run` returns after a graceful
/// shutdown (`beginGracefulShutdown`: listeners close, every connection gets GOAWAY, its
/// streams finish, then it closes) once the last connection is gone. Cancelling `run`
/// closes every connection at once, which cancels the handlers still running.
package final class HTTP2Server: Sendable {
    package let listeners: [HTTP2Listener]
    package let config: HTTP2ServerConfig
    private let handler: any HTTP2Handler
    private let group: any EventLoopGroup
    private let bound: EventLoopPromise<[SocketAddress]>
    private let requests = InboundQueue<PendingRequest>()
    private let state = Mutex(State())
    private let connectionIDs = Atomic<UInt64>(0)

    /// Invariant: `requests` is finished exactly when every listener is closed and no
    /// connection is left, so the request loop in `run` ends after the last request.
    /// `openListeners` counts the listeners from the start of `run` until each closes.
    private struct State {
        var running = false
        var listeners: [any Channel] = []
        var openListeners = 0
        var connections: [ObjectIdentifier: ServerConnectionHandle<HTTP2ServerConnection>] = [:]
        var shuttingDown = false

        var isDone: Bool { running && openListeners == 0 && connections.isEmpty }
    }

    /// - Parameter group: event loops for the listeners and their connections (default:
    ///   NIO's shared singleton group). Handlers run on Swift's global executor.
    package init(
        listeners: [HTTP2Listener], config: HTTP2ServerConfig = .defaults,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, handler: some HTTP2Handler
    ) {
        self.listeners = listeners
        self.config = config
        self.group = group
        self.handler = handler
        self.bound = group.any().makePromise(of: [SocketAddress].self)
    }

    /// The addresses the listeners are bound to, in the order of `listeners` (waits until
    /// they are; throws what made `run` fail before). With port 0, the port picked.
    package func listeningAddresses() async throws -> [SocketAddress] {
        try await bound.futureResult.get()
    }

    /// Binds every listener, serves until a graceful shutdown completes, then returns.
    /// Throws if a certificate cannot be loaded or a listener cannot bind (then none
    /// stays bound). Call it once.
    package func run() async throws {
        let alreadyRunning = state.withLock { state in
            defer {
                state.running = true
                // Counted before any is bound: a connection that closes before the count
                // is set must not look like the last one.
                state.openListeners = listeners.count
            }
            return state.running
        }
        precondition(!alreadyRunning, "HTTP2Server.run() called twice")
        let channels: [any Channel]
        do {
            channels = try await bindListeners()
        } catch {
            bound.fail(error)
            update { $0.openListeners = 0 }
            throw error
        }
        let stopNow = state.withLock { state -> Bool in
            state.listeners = channels
            return state.shuttingDown
        }
        bound.succeed(channels.map { $0.localAddress! })
        for channel in channels {
            channel.closeFuture.whenComplete { [self] _ in update { $0.openListeners -= 1 } }
        }
        if stopNow { for channel in channels { channel.close(promise: nil) } }
        await serveRequests()
    }

    /// Every request in a child task (or, for a batch handler, every group of requests that
    /// arrived together), until the last connection is gone. Cancelled, it
    /// closes every connection; the group cancels the handlers still running.
    private func serveRequests() async {
        let handler = self.handler
        let batching = handler as? any HTTP2BatchHandler
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                var waiting: [PendingRequest] = []
                while true {
                    requests.pollAll(into: &waiting)
                    if waiting.isEmpty {
                        guard let request = try? await requests.next() else { break }
                        waiting.append(request)
                    }
                    if let batching {
                        let batch = waiting
                        group.addTask { await Self.answer(batch, with: batching) }
                    } else {
                        for pending in waiting {
                            group.addTask { await Self.answer(pending, with: handler) }
                        }
                    }
                    waiting.removeAll(keepingCapacity: true)
                }
            }
        } onCancel: {
            closeEverything()
        }
    }

    private static func answer(_ pending: PendingRequest, with handler: any HTTP2Handler) async {
        let response: HTTP2Response
        do {
            response = try await handler.handle(pending.request)
        } catch {
            response = HTTP2Response(status: 500)
        }
        pending.answers.send(Answer(stream: pending.request.streamID, response: response))
    }

    /// One task for what arrived together; every request answered once, 500 if the handler
    /// left it unanswered.
    private static func answer(_ batch: [PendingRequest], with handler: any HTTP2BatchHandler) async {
        let answered = Mutex([Bool](repeating: false, count: batch.count))
        await handler.handle(batch: batch.map(\.request)) { index, response in
            guard batch.indices.contains(index),
                answered.withLock({ answered in
                    defer { answered[index] = true }
                    return !answered[index]
                })
            else { return }
            batch[index].answers.send(Answer(stream: batch[index].request.streamID, response: response))
        }
        let left = answered.withLock { answered in answered.indices.filter { !answered[$0] } }
        for index in left {
            batch[index].answers.send(
                Answer(stream: batch[index].request.streamID, response: HTTP2Response(status: 500)))
        }
    }

    /// Stops accepting; each connection gets GOAWAY and closes when its streams are done.
    package func beginGracefulShutdown() {
        let (listeners, connections) = state.withLock { state in
            state.shuttingDown = true
            return (state.listeners, Array(state.connections.values))
        }
        for listener in listeners { listener.close(promise: nil) }
        for connection in connections { connection.beginGracefulShutdown() }
    }

    /// `run` was cancelled: listeners and connections close now.
    private func closeEverything() {
        let (listeners, connections) = state.withLock { state in
            state.shuttingDown = true
            return (state.listeners, Array(state.connections.values))
        }
        for listener in listeners { listener.close(promise: nil) }
        for connection in connections { connection.channel.close(promise: nil) }
        requests.finish()
    }

    private func update(_ change: (inout State) -> Void) {
        let done = state.withLock { state -> Bool in
            change(&state)
            return state.isDone
        }
        if done { requests.finish() }
    }

    // MARK: Listeners

    private func bindListeners() async throws -> [any Channel] {
        var channels: [any Channel] = []
        do {
            for listener in listeners {
                let tls = try Self.tlsContext(for: listener.security)
                channels.append(try await bootstrap(tls: tls).bind(host: listener.host, port: listener.port).get())
            }
        } catch {
            for channel in channels { try? await channel.close() }
            throw error
        }
        return channels
    }

    private static func tlsContext(for security: HTTP2Listener.Security) throws -> NIOSSLContext? {
        guard case .tls(let files) = security else { return nil }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(files.certificateChain).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: files.privateKey, format: .pem)))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["h2"]
        return try NIOSSLContext(configuration: configuration)
    }

    private func bootstrap(tls: NIOSSLContext?) -> ServerBootstrap {
        let events = config.events
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { AcceptBackoff.install(on: $0, events: events) }
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try addConnection(to: channel, tls: tls)
                }
            }
    }

    /// On the channel's event loop: the connection's handlers, and its place in `state`.
    private func addConnection(to channel: any Channel, tls: NIOSSLContext?) throws {
        if let tls {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
            try channel.pipeline.syncOperations.addHandler(
                TLSHandshakeDeadline(timeout: config.tlsHandshakeTimeout, events: config.events))
        }
        let info = HTTP2ConnectionInfo(
            id: connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue, peer: channel.remoteAddress,
            isTLS: tls != nil)
        let connection = HTTP2ServerConnection(config: config, info: info, requests: requests, handler: handler)
        try channel.pipeline.syncOperations.addHandler(connection)
        let handle = ServerConnectionHandle(
            channel: channel, handler: NIOLoopBound(connection, eventLoop: channel.eventLoop))
        let shuttingDown = state.withLock { state in
            state.connections[handle.id] = handle
            return state.shuttingDown
        }
        if shuttingDown { connection.beginGracefulShutdown() }
        channel.closeFuture.whenComplete { [self] _ in
            update { _ = $0.connections.removeValue(forKey: handle.id) }
        }
    }
}
