import CNghttp2
import NIOCore
import NIOEmbedded
@testable import RPCNIO
import RPCCore
import RPCTestService
import Testing

/// The server connection handler on an in-memory channel, a raw HTTP/2 client talking to it,
/// and a router serving the calls the handler produces.
final class EmbeddedServer: @unchecked Sendable {
    // Unchecked: the test drives it from one task; the call router runs on its own queue.
    let channel: NIOAsyncTestingChannel
    let client: RawH2Client
    let calls: InboundQueue<ServerStream>
    let router: RPCRouter

    /// With `sharing`, another connection to that server: its calls go to the same queue
    /// and router (`serving` on either serves both).
    /// With `jsonServices`, their JSON routes are served too.
    init(
        config: NIOServerConfig = .defaults, services: [any RPCService] = [SteeredTestService()],
        jsonServices: [any RPCJSONService] = [],
        clientWindow: Int = 65_535, sharing server: EmbeddedServer? = nil
    ) async throws {
        router = server?.router ?? RPCRouter(services: services, jsonServices: jsonServices)
        calls = server?.calls ?? InboundQueue<ServerStream>()
        let channel = NIOAsyncTestingChannel()
        let calls = self.calls
        let routes = router.jsonRoutes.isEmpty ? nil : router.jsonRoutes
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(
                ServerConnectionHandler(config: config, calls: calls, jsonRoutes: routes))
        }
        self.channel = channel
        client = RawH2Client(windowSize: clientWindow)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()
    }

    /// Serves calls (in a task group of the caller's) while `body` runs.
    func serving<R>(_ body: () async throws -> R) async throws -> R {
        let calls = self.calls, router = self.router
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await withDiscardingTaskGroup { handlers in
                    while let stream = try? await calls.next() { handlers.addTask { await router.handle(stream) } }
                }
            }
            defer {
                calls.finish()
                group.cancelAll()
            }
            return try await body()
        }
    }

    /// Moves bytes both ways until `done` holds. The 60 s bound only turns a hang into a
    /// failure (handlers run on the shared cooperative pool, which a busy machine or
    /// CPU-bound tests beside this one can hold for seconds); it measures nothing.
    func exchange(
        deliverToClient: Bool = true, sourceLocation location: SourceLocation = #_sourceLocation,
        until done: () -> Bool
    ) async throws {
        let giveUp = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < giveUp {
            try await pump(deliverToClient: deliverToClient)
            if done() { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("the exchange did not reach the expected state", sourceLocation: location)
    }

    /// One round: client output to the server, server output to the client.
    func pump(deliverToClient: Bool = true) async throws {
        let out = client.outgoing()
        if !out.isEmpty, channel.isActive { try await channel.writeInbound(ByteBuffer(bytes: out)) }
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
            if deliverToClient { _ = client.receive(Array(buffer.readableBytesView)) }
            received.append(contentsOf: buffer.readableBytesView)
        }
    }

    /// Every byte the server wrote.
    var received: [UInt8] = []

    func sendRaw(_ bytes: [UInt8]) async throws {
        try await channel.writeInbound(ByteBuffer(bytes: bytes))
        try await pump()
    }

    /// Runs `body` with the connection handler, on its event loop.
    func withHandler<R: Sendable>(_ body: @escaping @Sendable (ServerConnectionHandler) throws -> R) async throws -> R {
        let channel = self.channel
        return try await channel.testingEventLoop.executeInContext {
            try body(channel.pipeline.syncOperations.handler(type: ServerConnectionHandler.self))
        }
    }

    func finish() async throws {
        client.close()
        _ = try? await channel.finish()
    }
}

/// A framed gRPC message.
func grpcMessage(_ bytes: [UInt8]) -> [UInt8] { MessagePrefix.framed(bytes) }

let steeredUnaryPath = SteeredTestService.unary.path
