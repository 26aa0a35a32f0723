import EngineHosting
import EngineHostToys
import Foundation
import GlimpseInterop
import GlimpseMessages
import GlimpseRPC
import Logging
import RPCCore
import RPCNIO
import ServiceKit
import Synchronization
import Testing

/// A service whose journal fails stops serving and exits, so its supervisor starts it again on
/// the journal; nothing swallows the failure.
@Suite("Service runner: a failed store", .serialized)
struct HostFailureWatchTests {
    final class Outcome: Sendable {
        let text = Mutex("still running")
    }

    @Test(
        "the journal fails: health NOT_SERVING, the runner shuts down by itself and run() throws the failure",
        .timeLimit(.minutes(2)))
    func aFailedJournalStopsTheService() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "host-failure-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try Journal(directory: directory, name: "counter")
        let clock = HostClock(.manual(start: Date(timeIntervalSince1970: 1_767_225_600)))
        let host = try EngineHost<Counter, CounterCommand>(
            engine: Counter(clock: clock), clock: clock, journal: journal, apply: CounterCommand.apply,
            perform: { _, _ in })
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var config = ServiceConfig.defaults(service: "failing-store-test")
        config.shutdownGrace = .seconds(30)
        var runner = ServiceRunner(
            config: config, logger: Logger(label: "failing-store-test") { _ in SwiftLogNoOpLogHandler() },
            services: [InteropTestService()], serviceNames: [GrpcTesting.TestService.name],
            descriptors: GlimpseInteropDescriptors.files)
        runner.shutdownSignals = []  // nothing but the failure ends it
        runner.onListening = { portContinuation.yield($0) }
        runner.addHost(host)
        let started = runner
        let outcome = Outcome()

        try await withThrowingTaskGroup { group in
            group.addTask {
                do {
                    try await started.run()
                    outcome.text.withLock { $0 = "returned" }
                } catch let error as EngineHostError {
                    outcome.text.withLock { $0 = "threw \(error)" }
                }
            }
            var portIterator = ports.makeAsyncIterator()
            let port = try #require(await portIterator.next())
            let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
            group.addTask { try await client.run() }
            let health = GrpcHealthV1.Health.Client(wrapping: client)
            started.markReady()
            #expect(try await health.check(ClientRequest(message: .init(service: ""))).message.status == .serving)
            #expect(try await host.submit(.add(1)) == 1)

            let statuses = try await health.watch(ClientRequest(message: .init(service: ""))) { responses in
                var seen: [GrpcHealthV1.HealthCheckResponse.ServingStatus] = []
                for try await response in responses {
                    seen.append(response.status)
                    if seen.count == 1 {
                        try journal.close()  // the disk is gone, say
                        await #expect(throws: EngineHostError.self) { try await host.submit(.add(1)) }
                    }
                }
                return seen
            }
            // SERVING, then NOT_SERVING from the failure (the shutdown that follows may say it again).
            #expect(Array(statuses.prefix(2)) == [.serving, .notServing])
            #expect(statuses.dropFirst().allSatisfy { $0 == .notServing })
            started.markReady()  // too late: the store failed
            #expect(started.health.status(of: "") == .notServing)
            client.beginGracefulShutdown()
            try await group.waitForAll()
        }
        #expect(outcome.text.withLock { $0 }.hasPrefix("threw the journal could not take a write"))
    }
}
