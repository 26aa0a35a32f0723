@testable import RPCNIO
import RPCCore
import RPCTestService
import Synchronization
import Testing

/// A client-streaming method whose handler never reads its requests: it waits until its
/// call is cancelled.
struct NonReadingService: RPCService {
    static let method = MethodDescriptor(service: "t.NonReading", method: "Hold")
    let started = StartedCount()

    func registerMethods(with router: inout RPCRouter) {
        let started = self.started
        router.registerClientStreaming(Self.method, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) {
            _, _ in
            started.count.add(1, ordering: .relaxed)
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            throw CancellationError()
        }
    }
}

final class StartedCount: Sendable {
    let count = Atomic<Int>(0)
}

@Suite("Server connection handler: the receive budget")
struct ReceiveBudgetTests {
    static let budget = 256 * 1024

    static var config: NIOServerConfig {
        var config = NIOServerConfig.defaults
        config.http2.receiveBudget = budget
        return config
    }

    @Test func aConnectionWhoseHandlersDoNotReadHoldsNoMoreThanItsBudget() async throws {
        let hoarder = NonReadingService()
        let services: [any RPCService] = [hoarder, SteeredTestService()]
        let server = try await EmbeddedServer(config: Self.config, services: services)
        let other = try await EmbeddedServer(config: Self.config, sharing: server)
        try await server.serving {
            // 16 streams, a 512 KiB message on each (8 MiB in all, 32 times the budget);
            // no handler ever reads.
            let message = grpcMessage(Array(repeating: 7, count: 512 * 1024))
            var ids: [Int32] = []
            for _ in 0..<16 {
                ids.append(server.client.request(path: NonReadingService.method.path, body: message, end: false))
            }
            var most = 0
            for _ in 0..<300 {
                try await server.pump()
                let buffered = try await server.withHandler { $0.bufferedRequestBytes }
                most = max(most, buffered)
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(most <= Self.budget, "the connection held \(most) bytes")
            // It did fill up: what is measured is the budget, not a stalled client.
            #expect(most > Self.budget / 2)
            #expect(try await server.withHandler { $0.receiveHeld } <= Self.budget)
            #expect(hoarder.started.count.load(ordering: .relaxed) == 16)
            #expect(ids.allSatisfy { server.client.streams[$0]?.isClosed != true })

            // Another connection to the same server is served as usual.
            let id = other.client.request(path: steeredUnaryPath, body: grpcMessage([1, 2, 3]))
            try await other.exchange { other.client.streams[id]?.isClosed == true }
            #expect(other.client.streams[id]?.grpcStatus == 0)
            #expect(other.client.streams[id]?.data == grpcMessage([1, 2, 3]))
        }
        try await other.finish()
        try await server.finish()
    }

    /// Messages four times the budget each, on four streams at once, whose handlers read:
    /// each message is credited while its handler waits for it, so none waits for budget
    /// the others hold.
    @Test func messagesLargerThanTheBudgetArriveWhenTheirHandlersRead() async throws {
        var config = NIOServerConfig.defaults
        config.http2.receiveBudget = 64 * 1024
        let server = try await EmbeddedServer(config: config)
        try await server.serving {
            let size = 256 * 1024
            let ids = (0..<4).map { _ in
                server.client.request(
                    path: SteeredTestService.clientStream.path, body: grpcMessage(Array(repeating: 9, count: size)))
            }
            try await server.exchange { ids.allSatisfy { server.client.streams[$0]?.isClosed == true } }
            for id in ids {
                #expect(server.client.streams[id]?.grpcStatus == 0)
                #expect(server.client.streams[id]?.data == grpcMessage(Array(String(size).utf8)))
            }
            #expect(try await server.withHandler { $0.receiveHeld } == 0)
        }
        try await server.finish()
    }

    /// A stream that holds most of the budget (its handler does not read) leaves the rest
    /// to the others: credit for it keeps coming back, though never half the window at once.
    @Test func theRestOfTheBudgetKeepsFlowingWhileMostOfItIsHeld() async throws {
        let hoarder = NonReadingService()
        let server = try await EmbeddedServer(config: Self.config, services: [hoarder, SteeredTestService()])
        try await server.serving {
            let held = 200 * 1024
            let message = grpcMessage(Array(repeating: 1, count: 512 * 1024))
            let hog = server.client.request(
                path: NonReadingService.method.path, body: Array(message[..<held]), end: false)
            try await server.exchange { server.client.connectionRemoteWindow == Self.budget - held }
            // 300 KiB in 1 KiB messages through the 56 KiB left.
            let small = Array(repeating: grpcMessage(Array(repeating: 2, count: 1024)), count: 300).flatMap { $0 }
            let id = server.client.request(path: SteeredTestService.clientStream.path, body: small)
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 0)
            #expect(server.client.streams[id]?.data == grpcMessage(Array(String(300 * 1024).utf8)))
            #expect(try await server.withHandler { $0.receiveHeld } == held)
            #expect(server.client.streams[hog]?.isClosed != true)
        }
        try await server.finish()
    }

    /// Streams reset halfway through their messages give their bytes back: the client's
    /// connection window is whole again, round after round.
    @Test func resetStreamsGiveTheirBytesBack() async throws {
        let hoarder = NonReadingService()
        let server = try await EmbeddedServer(config: Self.config, services: [hoarder, SteeredTestService()])
        try await server.serving {
            let message = grpcMessage(Array(repeating: 3, count: 128 * 1024))
            for _ in 0..<3 {
                let ids = (0..<8).map { _ in
                    server.client.request(path: NonReadingService.method.path, body: message, end: false)
                }
                // The client sends until the budget is used up.
                try await server.exchange { server.client.connectionRemoteWindow == 0 }
                #expect(try await server.withHandler { $0.receiveHeld } > Self.budget / 2)
                for id in ids { server.client.reset(id) }
                try await server.exchange { ids.allSatisfy { server.client.streams[$0]?.isClosed == true } }
                try await server.exchange { server.client.connectionRemoteWindow == Self.budget }
                #expect(try await server.withHandler { $0.receiveHeld } == 0)
                #expect(try await server.withHandler { $0.bufferedRequestBytes } == 0)
            }
            let id = server.client.request(path: steeredUnaryPath, body: grpcMessage([1]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 0)
        }
        try await server.finish()
    }
}
