import Foundation
import GlimpseInterop
import GlimpseMessages
import GlimpseRPC
import Logging
import RPCCore
import RPCNIO
import ServiceKit
import ServiceLifecycle
import Synchronization
import Testing
import UnixSignals

/// The runner in this process, shut down with SIGUSR1 (a signal nothing else here uses).
@Suite("Service runner", .serialized)
struct ServiceRunnerTests {
    final class Events: Sendable {
        let events = Mutex<[String]>([])
        func add(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    /// Runs until graceful shutdown, then says so.
    struct Background: Service {
        let events: Events

        func run() async throws {
            try? await gracefulShutdown()
            events.add("background stopped")
        }
    }

    @Test("NOT_SERVING until ready; on shutdown: NOT_SERVING, server stops, background stops, closers run last first")
    func readinessAndShutdownOrder() async throws {
        let events = Events()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var config = ServiceConfig.defaults(service: "runner-test")
        config.shutdownGrace = .seconds(10)
        var runner = ServiceRunner(
            config: config, logger: Logger(label: "runner-test") { _ in SwiftLogNoOpLogHandler() },
            services: [InteropTestService()], serviceNames: [GrpcTesting.TestService.name],
            descriptors: GlimpseInteropDescriptors.files)
        runner.shutdownSignals = [.sigusr1]
        runner.onListening = { portContinuation.yield($0) }
        runner.addBackground(Background(events: events))
        runner.onShutdown("first") { events.add("closed first") }
        runner.onShutdown("second") { events.add("closed second") }
        let started = runner

        try await withThrowingTaskGroup { group in
            group.addTask {
                try await started.run()
                events.add("run returned")
            }
            var portIterator = ports.makeAsyncIterator()
            let port = try #require(await portIterator.next())
            let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
            group.addTask { try await client.run() }
            let health = GrpcHealthV1.Health.Client(wrapping: client)
            func status(_ service: String) async throws -> GrpcHealthV1.HealthCheckResponse.ServingStatus {
                try await health.check(ClientRequest(message: .init(service: service))).message.status
            }
            #expect(try await status("") == .notServing)
            #expect(try await status(GrpcTesting.TestService.name) == .notServing)
            #expect(try await status(StandbyHealth.livenessName) == .serving)  // alive, not ready yet
            started.markReady()
            #expect(try await status("") == .serving)
            #expect(try await status(GrpcTesting.TestService.name) == .serving)
            #expect(try await status("grpc.health.v1.Health") == .serving)

            let statuses = try await health.watch(ClientRequest(message: .init(service: ""))) { responses in
                var seen: [GrpcHealthV1.HealthCheckResponse.ServingStatus] = []
                for try await response in responses {
                    seen.append(response.status)
                    if seen.count == 1 {
                        events.add("signal")
                        kill(getpid(), SIGUSR1)
                    }
                }
                return seen
            }
            #expect(statuses == [.serving, .notServing])
            started.markReady()  // too late: shutdown has begun
            #expect(started.health.status(of: "") == .notServing)
            client.beginGracefulShutdown()
            try await group.waitForAll()
        }
        #expect(events.all == ["signal", "background stopped", "closed second", "closed first", "run returned"])
    }
}
