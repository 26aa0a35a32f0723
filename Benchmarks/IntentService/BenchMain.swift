import GlimpseVocabulary
import BenchSupport
import Foundation
import GlimpseMessages
import GlimpseRPC
import IntentEngine
import RPCCore
import RPCNIO
import Synchronization
import NIOCore

/// glimpse-bench-intent-service --intent PATH [--taps N] [--concurrency C]
///
/// The real glimpse-intent (a child process, system clock, a fresh data directory) pointed
/// at this process as its glimpse-timeline, which only records when each `ReloadPlacement`
/// arrives. One app with a declarative intent (increment a counter in its App Group); N
/// placements, each tapped once with a unique idempotency key, C taps in flight. Prints
/// taps/s, Perform latency p50/p99, tap → reload requested p50/p99, the service's CPU per
/// tap, resident and store bytes; then the IntentExecutor alone on the same taps.
@main
enum BenchMain {
    static let app = "com.example.counter"
    static let group = "group.com.example.counter"
    static let kind = "CounterWidget"

    static func main() async throws {
        var taps = 50_000
        var concurrency = 64
        var intentPath = ""
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--taps": taps = Int(arguments.next() ?? "") ?? taps
            case "--concurrency": concurrency = Int(arguments.next() ?? "") ?? concurrency
            case "--intent": intentPath = arguments.next() ?? ""
            default:
                print("usage: glimpse-bench-intent-service --intent PATH [--taps N] [--concurrency C]")
                return
            }
        }

        // glimpse-timeline, as far as glimpse-intent sees it: the reloads arrive here.
        let recorder = ReloadRecorder()
        let timelineTransport = NIOServerTransport(host: "127.0.0.1", port: 0)
        let timelineServer = GRPCServer(transport: timelineTransport, services: [recorder])
        let timelineTask = Task { try await timelineServer.serve() }
        let timelinePort = try await timelineTransport.listeningAddress().port!

        let data = FileManager.default.temporaryDirectory.appendingPathComponent("bench-intent-\(UUID().uuidString)")
        guard
            let service = try ServiceProcess.start(
                intentPath,
                [
                    "--port", "0", "--data-dir", data.path, "--log-level", "warning",
                    "--timeline-address", "127.0.0.1:\(timelinePort)",
                ])
        else { return }
        let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: service.port))
        let clientTask = Task { try await client.run() }
        let intents = GlimpseIntentV1.IntentService.Client(wrapping: client)

        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = app
        manifest.appGroups = [group]
        var increment = GlimpseAppV1.StoreOperation()
        increment.kind = .increment(GlimpseAppV1.StoreOperation.Increment(key: "count", by: 1))
        var intent = GlimpseAppV1.IntentDeclaration()
        intent.type = "IncrementIntent"
        intent.widgetKinds = [kind]
        intent.action = .store(GlimpseAppV1.StoreAction(appGroup: group, operations: [increment]))
        manifest.intents = [intent]
        let token = try await intents.registerApp(
            ClientRequest(message: GlimpseIntentV1.RegisterAppRequest(manifest: manifest))
        ).message.appToken

        let wall = ContinuousClock()
        try await lanes(concurrency, over: taps) { n in
            var added = GlimpseIntentV1.PlacementAddedRequest()
            added.placementId = UInt64(n + 1)
            added.bundleId = app
            added.kind = kind
            added.family = .systemSmall
            _ = try await intents.placementAdded(ClientRequest(message: added))
        }

        // The taps: placement n+1 is tapped once, so its one reload is this tap's.
        let sent = Mutex<[UInt64: ContinuousClock.Instant]>([:])
        let performLatencies = Mutex<[Duration]>([])
        let cpuBefore = service.cpuSeconds
        let tapStart = wall.now
        try await lanes(concurrency, over: taps) { n in
            var tap = GlimpseIntentV1.PerformRequest()
            tap.idempotencyKey = "tap-\(n)"
            tap.bundleId = app
            tap.placementId = UInt64(n + 1)
            tap.intentType = "IncrementIntent"
            let start = wall.now
            sent.withLock { $0[tap.placementId] = start }
            let answer = try await intents.perform(
                ClientRequest(message: tap, metadata: Metadata(["authorization": "Bearer \(token)"])))
            guard case .performed? = answer.message.result else { fatalError("tap \(n): \(answer.message)") }
            let took = wall.now - start
            performLatencies.withLock { $0.append(took) }
        }
        let tapTime = wall.now - tapStart
        // Every reload arrives (they go out after the answers): wait for the last.
        while recorder.count < taps, wall.now - tapStart < .seconds(120) { try await Task.sleep(for: .milliseconds(5)) }
        let allTime = wall.now - tapStart
        let tapCPU = service.cpuSeconds - cpuBefore

        var perform = performLatencies.withLock { $0 }
        perform.sort()
        let arrived = recorder.arrivals
        var toReload = sent.withLock { sent in arrived.compactMap { id, at in sent[id].map { at - $0 } } }
        toReload.sort()

        print(
            "glimpse-intent service: \(taps) taps, one per placement, \(concurrency) in flight, unique idempotency keys"
        )
        print(
            "taps answered:                    \(format(tapTime.seconds)) s, \(Int(Double(taps) / tapTime.seconds)) taps/s"
        )
        print(
            "Perform latency:                  p50 \(format(percentile(perform, 0.5), 2)) ms, p99 \(format(percentile(perform, 0.99), 2)) ms"
        )
        print(
            "reloads requested:                \(arrived.count) of \(taps), last \(format(allTime.seconds)) s after the first tap"
        )
        print(
            "tap → reload requested:           p50 \(format(percentile(toReload, 0.5), 2)) ms, p99 \(format(percentile(toReload, 0.99), 2)) ms"
        )
        print(
            "service CPU for the taps:         \(format(tapCPU)) s, \(format(tapCPU * 1e6 / Double(max(1, taps)))) µs per tap"
        )
        print("service resident bytes:           \(service.residentBytes)")
        print(
            "store bytes/tap:                  \(directoryBytes(data) / max(1, taps)) (journal with the idempotency ledger, SQLite WAL)"
        )

        service.stop()
        client.beginGracefulShutdown()
        timelineTask.cancel()
        _ = await clientTask.result
        try? FileManager.default.removeItem(at: data)

        engineAlone(taps: taps)
    }

    /// Runs `body(n)` for n in 0..<total on `width` concurrent lanes.
    static func lanes(
        _ width: Int, over total: Int, _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<width {
                group.addTask {
                    for n in stride(from: lane, to: total, by: width) { try await body(n) }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The reference: the same taps on the IntentExecutor alone, in process.
    static func engineAlone(taps: Int) {
        let clock = VirtualClock()
        var executor = IntentExecutor(clock: clock)
        let appID = AppID(app)
        try! executor.install(
            app: appID, groups: [GroupID(group)],
            intents: [
                IntentDefinition(
                    type: "IncrementIntent", title: "Increment",
                    action: .store(group: GroupID(group), operations: [.increment(key: "count", by: 1)]),
                    widgetKinds: [kind])
            ])
        for n in 0..<taps {
            executor.placementAdded(
                PlacementID(UInt64(n + 1)), PlacedWidget(app: appID, kind: kind, family: .systemSmall))
        }
        let wall = ContinuousClock()
        let start = wall.now
        var reloads = 0
        for n in 0..<taps {
            let effects = executor.tap(
                WidgetTap(
                    idempotencyKey: "tap-\(n)", app: appID, placement: PlacementID(UInt64(n + 1)),
                    intent: "IncrementIntent"))
            reloads += effects.count { if case .reloadPlacement = $0 { true } else { false } }
        }
        let took = wall.now - start
        print("== engine alone (IntentExecutor, same taps, in process)")
        print(
            "taps:                             \(taps) in \(format(took.seconds, 3)) s, \(Int(Double(taps) / took.seconds)) taps/s, \(reloads) reloads"
        )
    }
}

/// glimpse-timeline's `ReloadPlacement`, recording when each placement's reload arrived.
final class ReloadRecorder: RPCService, Sendable {
    private let arrived = Mutex<[UInt64: ContinuousClock.Instant]>([:])

    var count: Int { arrived.withLock { $0.count } }
    var arrivals: [UInt64: ContinuousClock.Instant] { arrived.withLock { $0 } }

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(
            GlimpseTimelineV1.TimelineService.Method.reloadPlacement,
            deserializer: ProtoDeserializer<GlimpseTimelineV1.ReloadPlacementRequest>(),
            serializer: ProtoSerializer<GlimpseTimelineV1.ReloadResponse>()
        ) { request, _ in
            let now = ContinuousClock.now
            self.arrived.withLock {
                if $0[request.message.placementId] == nil { $0[request.message.placementId] = now }
            }
            return ServerResponse(message: GlimpseTimelineV1.ReloadResponse())
        }
    }
}
