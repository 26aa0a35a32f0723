public import NIOCore
public import NIOPosix
public import RPCCore
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

    public init(
        host: String, port: Int, config: NIOClientConfig = .defaults,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.host = host
        self.port = port
        self.config = config
        self.group = group
    }

    /// Waits for the shared connection (making it if need be); a task cancelled meanwhile
    /// stops waiting with CANCELLED and leaves the connection to the calls after it.
    public func openStream(_ head: ClientRequestHead) async throws -> ClientStream {
        let connection = try await usableConnection()
        return connection.open(head, config: config)
    }

    public func run() async throws {
        _ = try? await shutdownSignal.next()
        let (connection, pending) = state.withLock { state in
            state.shutDown = true
            return (state.connection, state.pending)
        }
        var connections = connection.map { [$0] } ?? []
        // A connection still being made (say for a call that gave up waiting) is closed too.
        if let pending, let made = try? await pending.get() { connections.append(made) }
        for connection in connections {
            connection.beginGracefulShutdown()
            try? await connection.channel.closeFuture.get()
        }
    }

    public func beginGracefulShutdown() {
        shutdownSignal.finish()
    }

    private func usableConnection() async throws -> ClientConnection {
        enum Lookup { case ready(ClientConnection), connecting(EventLoopFuture<ClientConnection>, isNew: Bool) }
        let lookup = try state.withLock { state throws(RPCError) -> Lookup in
            if state.shutDown { throw RPCError(code: .unavailable, message: "The client is shut down") }
            if let connection = state.connection, connection.state.isUsable { return .ready(connection) }
            if let pending = state.pending { return .connecting(pending, isNew: false) }
            let pending = connect()
            state.pending = pending
            return .connecting(pending, isNew: true)
        }
        switch lookup {
        case .ready(let connection):
            return connection
        case .connecting(let connecting, let isNew):
            // The transport, not the first caller, keeps what the attempt makes: that caller
            // may stop waiting (cancelled) while the attempt goes on for the others.
            if isNew { connecting.whenComplete { [self] result in settle(connecting, result) } }
            do {
                return try await Self.value(of: connecting)
            } catch let error as RPCError where error.code == .cancelled {
                throw error
            } catch {
                throw RPCError(code: .unavailable, message: "Cannot connect to \(host):\(port): \(error)")
            }
        }
    }

    /// A connection attempt ended: its connection becomes the one calls share.
    private func settle(_ connecting: EventLoopFuture<ClientConnection>, _ result: Result<ClientConnection, any Error>)
    {
        state.withLock { state in
            guard state.pending === connecting else { return }
            state.pending = nil
            if case .success(let connection) = result { state.connection = connection }
        }
    }

    /// The value of `future`, or CANCELLED as soon as the task is cancelled (a future's
    /// `get()` would wait on regardless). The future itself is left to complete.
    private static func value<Value: Sendable>(of future: EventLoopFuture<Value>) async throws -> Value {
        let waiter = CancellableWaiter<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard waiter.wait(continuation) else { return }
                future.whenComplete { waiter.resume(with: $0) }
            }
        } onCancel: {
            waiter.resume(
                with: .failure(RPCError(code: .cancelled, message: "The call was cancelled while connecting")))
        }
    }

    private func connect() -> EventLoopFuture<ClientConnection> {
        let config = self.config
        let authority = "\(host):\(port)"
        let made = ConnectionSlot()
        return ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
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
            .flatMapThrowing { channel in
                // Dialling a local port nobody listens on, in the ephemeral range, can connect
                // the socket to itself (TCP simultaneous open): nothing is there, and while the
                // socket lives the server it waits for cannot bind its port.
                if let local = channel.localAddress, local == channel.remoteAddress {
                    channel.close(promise: nil)
                    throw RPCError(
                        code: .unavailable, message: "Nothing listens on \(authority) (the socket connected to itself)")
                }
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
            eagerAllowance: config.http2.eagerReleaseAllowance,
            observer: ClientFlowObserver(mailbox: mailbox, token: token))
        let gate = OutboundGate(
            highWatermark: config.http2.outboundHighWatermark, lowWatermark: config.http2.outboundLowWatermark)
        let queues = ClientCallQueues(inbound: inbound, gate: gate)
        if !mailbox.send(.open(token: token, head, queues), flush: false) {
            queues.fail(Status(code: .unavailable, message: "The connection closed"), trailers: RequestNotSent.trailers)
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

/// One task waiting for a value that either its arrival or the task's cancellation ends,
/// whichever comes first; a cancellation that comes before the wait begins ends it at once.
private final class CancellableWaiter<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Value, any Error>)
        case ended(Result<Value, any Error>)
        case done
    }

    private let state = Mutex(State.idle)

    /// Starts waiting; returns false (having resumed `continuation`) if it already ended.
    func wait(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let ended = state.withLock { state -> Result<Value, any Error>? in
            guard case .ended(let result) = state else {
                state = .waiting(continuation)
                return nil
            }
            state = .done
            return result
        }
        guard let ended else { return true }
        continuation.resume(with: ended)
        return false
    }

    /// Ends the wait with `result`, unless it already ended.
    func resume(with result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .idle:
                state = .ended(result)
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .ended, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
