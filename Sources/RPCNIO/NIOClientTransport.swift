import NIOCore
import NIOPosix
import RPCCore
import Synchronization

/// gRPC over HTTP/2 (cleartext, prior knowledge) to one server, nghttp2 under SwiftNIO.
/// Calls share one connection; when it is lost or the server says GOAWAY, the next call
/// opens a new one (so a restarted server is reached again).
///
///     let transport = NIOClientTransport(host: "127.0.0.1", port: 50051)
///     let client = GRPCClient(transport: transport)
public final class NIOClientTransport: ClientTransport {
    public let host: String
    public let port: Int
    public let config: NIOClientConfig
    private let group: any EventLoopGroup
    private let state = Mutex(State())
    private let shutdownSignal = InboundQueue<Never>()

    private struct State {
        var connection: ClientConnection?
        var pending: EventLoopFuture<ClientConnection>?
        var shutDown = false
    }

    public init(host: String, port: Int, config: NIOClientConfig = .defaults,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.host = host
        self.port = port
        self.config = config
        self.group = group
    }

    public func openStream(_ head: ClientRequestHead) async throws -> ClientStream {
        let connection = try await usableConnection()
        return connection.open(head, config: config)
    }

    public func run() async throws {
        _ = try? await shutdownSignal.next()
        let connection = state.withLock { state -> ClientConnection? in
            state.shutDown = true
            return state.connection
        }
        if let connection {
            connection.beginGracefulShutdown()
            try? await connection.channel.closeFuture.get()
        }
    }

    public func beginGracefulShutdown() {
        shutdownSignal.finish()
    }

    private func usableConnection() async throws -> ClientConnection {
        let future = state.withLock { state -> Result<EventLoopFuture<ClientConnection>, RPCError> in
            if state.shutDown { return .failure(RPCError(code: .unavailable, message: "The client is shut down")) }
            if let connection = state.connection, connection.state.isUsable {
                return .success(connection.channel.eventLoop.makeSucceededFuture(connection))
            }
            if let pending = state.pending { return .success(pending) }
            let pending = connect()
            state.pending = pending
            return .success(pending)
        }
        let connecting = try future.get()
        do {
            let connection = try await connecting.get()
            state.withLock { state in
                if state.pending === connecting {
                    state.pending = nil
                    state.connection = connection
                }
            }
            return connection
        } catch {
            state.withLock { state in if state.pending === connecting { state.pending = nil } }
            throw RPCError(code: .unavailable, message: "Cannot connect to \(host):\(port): \(error)")
        }
    }

    private func connect() -> EventLoopFuture<ClientConnection> {
        let config = self.config
        let authority = "\(host):\(port)"
        let made = ConnectionSlot()
        return ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.nanoseconds(config.connectTimeout.nanosecondsClamped))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let shared = ClientConnectionState()
                    let handler = ClientConnectionHandler(config: config, authority: authority, state: shared)
                    let mailbox = handler.makeMailbox(eventLoop: channel.eventLoop)
                    try channel.pipeline.syncOperations.addHandler(handler)
                    made.value.withLock {
                        $0 = ClientConnection(
                            channel: channel, mailbox: mailbox, state: shared,
                            handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    }
                }
            }
            .connect(host: host, port: port)
            .flatMapThrowing { _ in
                guard let connection = made.value.withLock({ $0 }) else {
                    throw RPCError(code: .unavailable, message: "The connection was not set up")
                }
                return connection
            }
    }
}

/// A connection as the client transport holds it.
struct ClientConnection: Sendable {
    let channel: any Channel
    let mailbox: Mailbox<ClientCommand>
    let state: ClientConnectionState
    let handler: NIOLoopBound<ClientConnectionHandler>

    func open(_ head: ClientRequestHead, config: NIOClientConfig) -> ClientStream {
        let token = state.makeToken()
        let mailbox = self.mailbox
        let inbound = InboundQueue<RPCResponsePart>(
            eagerAllowance: config.http2.eagerReleaseAllowance, observer: ClientFlowObserver(mailbox: mailbox, token: token))
        let gate = OutboundGate(
            highWatermark: config.http2.outboundHighWatermark, lowWatermark: config.http2.outboundLowWatermark)
        let queues = ClientCallQueues(inbound: inbound, gate: gate)
        if !mailbox.send(.open(token: token, head, queues), flush: false) {
            queues.fail(Status(code: .unavailable, message: "The connection closed"))
        }
        return ClientStream(inbound: inbound, outbound: ClientStreamWriter(token: token, mailbox: mailbox, gate: gate))
    }

    func beginGracefulShutdown() {
        let handler = self.handler
        channel.eventLoop.execute { handler.value.beginGracefulShutdown() }
    }
}

/// Hands the connection made in the channel initializer to the connect future.
private final class ConnectionSlot: Sendable {
    let value = Mutex<ClientConnection?>(nil)
}
