import BenchSupport
import Foundation
import GlimpseMessages
import GlimpseRPC
import RPCCore
import RPCNIO
import Synchronization
import NIOCore

/// glimpse-bench-timeline-service --timeline PATH [--placements N] [--hours H] [--store URL]
///
/// The real glimpse-timeline (a child process, manual clock, a fresh data directory) and
/// this process as the app's provider: installs one app, places N widgets, then advances
/// the clock through H hours in 15-minute steps, following WatchEntries. Prints provider
/// calls/s, entry changes/s through AdvanceTo, provider answer → WatchEntries delivery
/// p50/p99, and the service's resident and store bytes per placement. `--store` passes a
/// `postgres://` journal to the service (its store bytes are then not in the data directory).
@main
enum BenchMain {
    static func main() async throws {
        var placements = 100_000
        var hours = 24
        var timelinePath = ""
        var store: String?
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--placements": placements = Int(arguments.next() ?? "") ?? placements
            case "--hours": hours = Int(arguments.next() ?? "") ?? hours
            case "--timeline": timelinePath = arguments.next() ?? ""
            case "--store": store = arguments.next()
            default:
                print(
                    "usage: glimpse-bench-timeline-service --timeline PATH [--placements N] [--hours H] [--store URL]")
                return
            }
        }

        // The provider.
        let provider = BenchProvider()
        let providerTransport = NIOServerTransport(host: "127.0.0.1", port: 0)
        let providerServer = GRPCServer(transport: providerTransport, services: [provider])
        let providerTask = Task { try await providerServer.serve() }
        let providerPort = try await providerTransport.listeningAddress().port!

        // The service.
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("bench-timeline-\(UUID().uuidString)")
        guard
            let service = try ServiceProcess.start(
                timelinePath,
                [
                    "--port", "0", "--data-dir", data.path, "--clock", "manual",
                    "--start-time", "2026-01-01T09:00:00Z", "--log-level", "warning",
                ] + (store.map { ["--store", $0] } ?? []))
        else { return }
        let port = service.port
        let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
        let clientTask = Task { try await client.run() }
        let timeline = GlimpseTimelineV1.TimelineService.Client(wrapping: client)
        let clock = GlimpseClockV1.Clock.Client(wrapping: client)

        // Follow WatchEntries: when each placement's new timeline first shows.
        let delivered = Mutex<[BenchProvider.Key: ContinuousClock.Instant]>([:])
        let changes = Atomic<Int>(0)
        let lastSequence = Atomic<UInt64>(0)
        let watch = Task {
            try await timeline.watchEntries(ClientRequest(message: GlimpseTimelineV1.WatchEntriesRequest())) { stream in
                for try await change in stream {
                    let now = ContinuousClock.now
                    changes.add(1, ordering: .relaxed)
                    // A new timeline's first entry ("+0") shows when its answer is taken.
                    if let date = change.entry?.date, case .text(let text)? = change.entry?.view?.kind,
                        text.content.hasSuffix("+0")
                    {
                        let key = BenchProvider.Key(placement: change.placementId, date: date.seconds)
                        delivered.withLock { if $0[key] == nil { $0[key] = now } }
                    }
                    lastSequence.store(change.sequence, ordering: .releasing)
                }
            }
        }

        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = "com.example.pixartracker"
        manifest.defaultEndpoint = "127.0.0.1:\(providerPort)"
        var widget = GlimpseAppV1.WidgetKindDeclaration()
        widget.kind = "PixarFilmWidget"
        manifest.widgets = [widget]
        _ = try await timeline.installApp(
            ClientRequest(message: GlimpseTimelineV1.InstallAppRequest(manifest: manifest)))

        let wall = ContinuousClock()
        let placeStart = wall.now
        let total = placements
        try await withThrowingTaskGroup(of: Void.self) { group in
            let lanes = 64
            for lane in 0..<lanes {
                group.addTask {
                    for n in stride(from: lane, to: total, by: lanes) {
                        var place = GlimpseTimelineV1.PlaceRequest()
                        place.bundleId = "com.example.pixartracker"
                        place.kind = "PixarFilmWidget"
                        place.family = [.systemSmall, .systemMedium, .accessoryCircular][n % 3]
                        _ = try await timeline.place(ClientRequest(message: place))
                    }
                }
            }
            try await group.waitForAll()
        }
        let placeTime = wall.now - placeStart
        let callsAfterPlacing = provider.calls.load(ordering: .relaxed)

        let start = Date(timeIntervalSince1970: 1_767_258_000)
        let dayStart = wall.now
        let cpuBefore = service.cpuSeconds
        let changesBefore = changes.load(ordering: .relaxed)
        for step in 1...(hours * 4) {
            var advance = GlimpseClockV1.AdvanceToRequest()
            advance.to = GoogleProtobuf.Timestamp(seconds: Int64(start.timeIntervalSince1970) + Int64(step * 900))
            let answer = try await clock.advanceTo(ClientRequest(message: advance))
            while lastSequence.load(ordering: .acquiring) < answer.message.watermark { await Task.yield() }
            if step % 8 == 0 { FileHandle.standardError.write(Data("\(step / 4) h of \(hours)\r".utf8)) }
        }
        let dayTime = wall.now - dayStart
        let dayCPU = service.cpuSeconds - cpuBefore
        let dayChanges = changes.load(ordering: .relaxed) - changesBefore
        let dayCalls = provider.calls.load(ordering: .relaxed) - callsAfterPlacing

        // Latency: provider answered → WatchEntries delivered, for every matched timeline.
        let answered = provider.answered.withLock { $0 }
        var latencies = delivered.withLock { d in answered.compactMap { key, at in d[key].map { $0 - at } } }
        latencies.sort()
        let rss = service.residentBytes
        let storeBytes = directoryBytes(data)
        func seconds(_ d: Duration) -> Double { d.seconds }

        print(
            "glimpse-timeline service: \(placements) placements, \(hours) h on a manual clock (15-min AdvanceTo steps)")
        print(
            "placing (64 in flight):           \(String(format: "%.1f", seconds(placeTime))) s, \(Int(Double(placements) / seconds(placeTime))) placements/s"
        )
        print("simulated day:                    \(String(format: "%.1f", seconds(dayTime))) s wall")
        print("provider calls in the day:        \(dayCalls), \(Int(Double(dayCalls) / seconds(dayTime)))/s")
        print("entry changes through AdvanceTo:  \(dayChanges), \(Int(Double(dayChanges) / seconds(dayTime)))/s")
        let dayEvents = dayChanges + dayCalls
        print("service events (changes+answers): \(dayEvents), \(Int(Double(dayEvents) / seconds(dayTime)))/s")
        print(
            "service CPU in the day:           \(String(format: "%.1f", dayCPU)) s, \(String(format: "%.1f", dayCPU * 1e6 / Double(max(1, dayEvents)))) µs per event"
        )
        print(
            "answer → WatchEntries delivery:   p50 \(format(percentile(latencies, 0.5), 2)) ms, p99 \(format(percentile(latencies, 0.99), 2)) ms (\(latencies.count) timelines)"
        )
        print("service resident bytes/placement: \(rss / max(1, placements))")
        if store == nil {
            print("store bytes/placement:            \(storeBytes / max(1, placements)) (journal, SQLite WAL)")
        }

        watch.cancel()
        service.stop()
        client.beginGracefulShutdown()
        providerTask.cancel()
        _ = await clientTask.result
        try? FileManager.default.removeItem(at: data)
    }
}
