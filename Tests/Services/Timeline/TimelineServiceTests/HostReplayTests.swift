import ServiceKit
import Foundation
import Synchronization
import Testing
import EngineHosting
import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
import RPCCore
import TimelineEngine
import TimelineService
import TimelineMapping

/// glimpse-timeline's state in the one engine host, on a real SQLite journal and a manual
/// clock, with a provider stand-in that answers each call through the host.
final class TimelineHostHarness: Sendable {
    typealias Host = EngineHost<TimelineState, TimelineCommand>
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    /// A value shared with the host's perform closure.
    final class Box<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func withLock<T>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
    }

    let host: Host
    /// Provider calls seen, by placement.
    let calls = Box<[UInt64]>([])

    init(directory: URL) throws {
        let clock = HostClock(.manual(start: Self.start))
        let journal = try Journal(directory: directory, name: "timeline")
        let calls = self.calls
        host = try Host(
            engine: TimelineState(scheduler: TimelineScheduler(clock: clock)), clock: clock, journal: journal,
            apply: TimelineState.apply,
            perform: { host, effects in
                for case .fetchTimeline(let request) in effects {
                    calls.withLock { $0.append(request.placement.rawValue) }
                    // Pixar's provider: five entries 15 minutes apart, .atEnd.
                    var timeline = GlimpseWidgetV1.Timeline()
                    for minute in stride(from: 0, through: 60, by: 15) {
                        var entry = GlimpseWidgetV1.TimelineEntry()
                        entry.date = GoogleProtobuf.Timestamp(host.clock.now.addingTimeInterval(Double(minute) * 60))
                        entry.view = GlimpseWidgetV1.View(kind: .text(GlimpseWidgetV1.Text(content: "Coco +\(minute)")))
                        timeline.entries.append(entry)
                    }
                    timeline.reloadPolicy = .atEnd
                    var answer = GlimpseTimelineV1.ProviderAnswer()
                    answer.fetchId = request.id.rawValue
                    answer.outcome = .timeline(timeline)
                    _ = try? await host.submit(TimelineCommand(.providerAnswer(answer)))
                }
            })
    }

    static func manifest() -> GlimpseAppV1.AppManifest {
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = "com.example.pixartracker"
        var widget = GlimpseAppV1.WidgetKindDeclaration()
        widget.kind = "PixarFilmWidget"
        widget.supportedFamilies = [.systemSmall, .systemMedium, .accessoryCircular]
        manifest.widgets = [widget]
        return manifest
    }

    func installAndPlace() async throws {
        var install = GlimpseTimelineV1.InstallAppRequest()
        install.manifest = Self.manifest()
        _ = try await host.submit(TimelineCommand(.install(install), appToken: "token-1"))
        var place = GlimpseTimelineV1.PlaceRequest()
        place.bundleId = "com.example.pixartracker"
        place.kind = "PixarFilmWidget"
        place.family = .systemMedium
        place.placementId = 1
        _ = try await host.submit(TimelineCommand(.place(place)))
    }

    func shown() async -> String? {
        await host.read { state in
            state.scheduler.currentEntry(of: 1).flatMap { entry in
                guard case .text(let text)? = entry.wire.view?.kind else { return nil }
                return text.content
            }
        }
    }
}

@Suite("glimpse-timeline state in the engine host")
struct HostReplayTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-timeline-\(UUID().uuidString)")
    }

    @Test(
        "install, place and a provider's answers are journaled; a new host on the same file replays to the same screen")
    func replay() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try TimelineHostHarness(directory: dir)
        try await first.installAndPlace()
        try await first.host.advance(to: TimelineHostHarness.start.addingTimeInterval(35 * 60))
        #expect(await first.shown() == "Coco +30")
        try await first.host.advance(to: TimelineHostHarness.start.addingTimeInterval(65 * 60))
        #expect(await first.shown() == "Coco +0")  // the .atEnd reload at 60 answered a new timeline
        #expect(first.calls.withLock { $0 } == [1, 1])
        let before = await first.host.read {
            ($0.scheduler.timeline(of: 1), $0.scheduler.reloadsUsed(by: 1), $0.app(forToken: "token-1"))
        }
        try await first.host.close()

        let second = try TimelineHostHarness(directory: dir)
        let after = await second.host.read {
            ($0.scheduler.timeline(of: 1), $0.scheduler.reloadsUsed(by: 1), $0.app(forToken: "token-1"))
        }
        #expect(after.0 == before.0)
        #expect(after.1 == before.1)
        #expect(after.2 == AppID("com.example.pixartracker"))
        #expect(second.calls.withLock { $0 }.isEmpty)  // replay calls no provider
        try await second.host.close()
    }

    @Test("refusals are gRPC statuses naming the problem, and leave nothing in the journal")
    func refusals() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try TimelineHostHarness(directory: dir)
        try await h.installAndPlace()
        let entries = try h.host.journal.count()
        var place = GlimpseTimelineV1.PlaceRequest()
        place.bundleId = "com.example.pixartracker"
        place.kind = "PixarFilmWidget"
        place.family = .accessoryInline
        place.placementId = 2
        await #expect(
            throws: RPCError(
                code: .invalidArgument,
                message:
                    "kind PixarFilmWidget does not support accessoryInline; supported: accessoryCircular, systemMedium, systemSmall"
            )
        ) {
            try await h.host.submit(TimelineCommand(.place(place)))
        }
        place.kind = "Nope"
        await #expect(
            throws: RPCError(code: .notFound, message: "app com.example.pixartracker has no widget kind Nope")
        ) {
            try await h.host.submit(TimelineCommand(.place(place)))
        }
        place.kind = "PixarFilmWidget"
        place.family = .unspecified
        await #expect(throws: RPCError(code: .invalidArgument, message: "family: a widget family is required")) {
            try await h.host.submit(TimelineCommand(.place(place)))
        }
        #expect(try h.host.journal.count() == entries)
        try await h.host.close()
    }
}
