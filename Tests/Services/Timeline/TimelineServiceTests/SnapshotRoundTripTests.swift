import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
import ServiceKit
import Testing
import TimelineEngine
import TimelineService

/// glimpse-timeline's state through a snapshot: built by real inputs (apps, placements,
/// configurations, provider answers and failures, reloads, low power, a day of firings),
/// saved with calls still out, restored into a fresh host, and driven on beside the
/// original: the same state and the same effects from there.
@Suite("glimpse-timeline state survives a snapshot exactly")
struct TimelineSnapshotTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    /// A host that records its effects and the provider calls it was asked to make; the
    /// test answers them, so calls can be out when the snapshot is taken.
    final class Recorder: Sendable {
        let host: EngineHost<TimelineState, TimelineCommand>
        let effects = TimelineHostHarness.Box<[TimelineEffect]>([])
        let fetches = TimelineHostHarness.Box<[FetchRequest]>([])

        init(journal: Journal, snapshotting: Snapshotting<TimelineState>? = nil) throws {
            let clock = HostClock(.manual(start: TimelineSnapshotTests.start))
            let effects = self.effects, fetches = self.fetches
            host = try EngineHost(
                engine: TimelineState(scheduler: TimelineScheduler(clock: clock)), clock: clock, journal: journal,
                snapshotting: snapshotting, apply: TimelineState.apply,
                perform: { _, batch in
                    effects.withLock { $0 += batch }
                    for case .fetchTimeline(let request) in batch { fetches.withLock { $0.append(request) } }
                })
        }

        func submit(_ input: GlimpseTimelineV1.JournalRecord.Input, token: String = "") async throws {
            _ = try await host.submit(TimelineCommand(input, appToken: token))
        }

        /// Answers every call out: a timeline of four entries 20 minutes apart, or, for every
        /// third call, an error (so retries and `lastErrors` are in the state).
        func answerAll() async throws {
            let calls = fetches.withLock { calls in
                defer { calls = [] }; return calls
            }
            let now = host.clock.now
            for call in calls {
                var answer = GlimpseTimelineV1.ProviderAnswer()
                answer.fetchId = call.id.rawValue
                if call.id.rawValue % 3 == 0 {
                    var error = GlimpseTimelineV1.ProviderError()
                    error.code = "UNAVAILABLE"
                    error.message = "provider down for \(call.placement)"
                    answer.outcome = .error(error)
                } else {
                    var timeline = GlimpseWidgetV1.Timeline()
                    for step in 0..<4 {
                        var entry = GlimpseWidgetV1.TimelineEntry()
                        entry.date = GoogleProtobuf.Timestamp(now.addingTimeInterval(Double(step) * 1_200))
                        entry.view = GlimpseWidgetV1.View(
                            kind: .text(GlimpseWidgetV1.Text(content: "\(call.placement) \(step)")))
                        if step == 1 {
                            entry.relevance = GlimpseWidgetV1.TimelineEntryRelevance(
                                score: 0.5, duration: GoogleProtobuf.Duration(seconds: 600))
                        }
                        timeline.entries.append(entry)
                    }
                    timeline.reloadPolicy = call.placement.rawValue.isMultiple(of: 2) ? .atEnd : .never
                    answer.outcome = .timeline(timeline)
                }
                _ = try? await host.submit(TimelineCommand(.providerAnswer(answer)))
            }
        }

        func state() async throws -> [UInt8] {
            try await host.read { try SnapshotEncoder().encode($0) }
        }
    }

    static func manifest(_ bundle: String) -> GlimpseAppV1.AppManifest {
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = bundle
        var widget = GlimpseAppV1.WidgetKindDeclaration()
        widget.kind = "Board"
        widget.supportedFamilies = [.systemSmall, .systemMedium, .accessoryRectangular]
        var city = GlimpseAppV1.ParameterDeclaration()
        city.name = "city"
        city.type = .string
        city.defaultValue = GlimpseWidgetV1.ParameterValue(kind: .stringValue("Paris"))
        widget.configuration = [city]
        manifest.widgets = [widget]
        return manifest
    }

    /// The inputs before the snapshot.
    static func build(_ r: Recorder) async throws {
        for (n, bundle) in ["com.example.a", "com.example.b"].enumerated() {
            var install = GlimpseTimelineV1.InstallAppRequest()
            install.manifest = manifest(bundle)
            try await r.submit(.install(install), token: "token-\(n)")
            for (slot, family) in [GlimpseWidgetV1.WidgetFamily.systemSmall, .systemMedium, .accessoryRectangular]
                .enumerated()
            {
                var place = GlimpseTimelineV1.PlaceRequest()
                place.bundleId = bundle
                place.kind = "Board"
                place.family = family
                if slot == 1 {
                    place.configuration = ["city": GlimpseWidgetV1.ParameterValue(kind: .stringValue("Oslo"))]
                }
                try await r.submit(.place(place))
            }
        }
        try await r.answerAll()
        for hour in 1...30 {
            try await r.host.advance(to: start.addingTimeInterval(Double(hour) * 1_800))
            try await r.answerAll()
            if hour == 5 {
                var reload = GlimpseTimelineV1.ReloadTimelinesRequest()
                reload.bundleId = "com.example.a"
                reload.kind = "Board"
                reload.requestId = "intent/tap/1"
                try await r.submit(.reloadTimelines(reload))
            }
            if hour == 9 {
                try await r.submit(.deviceSettings(GlimpseTimelineV1.SetDeviceSettingsRequest(lowPowerMode: true)))
            }
            if hour == 12 { try await r.submit(.remove(GlimpseTimelineV1.RemoveRequest(placementId: 2))) }
            if hour == 20 {
                try await r.submit(
                    .appState(GlimpseTimelineV1.SetAppStateRequest(bundleId: "com.example.b", active: true)))
            }
        }
        // Calls out at the snapshot: a reload asked and not yet answered.
        try await r.submit(.reloadAllTimelines(GlimpseTimelineV1.ReloadAllTimelinesRequest(bundleId: "com.example.a")))
    }

    /// The same inputs after it, to both.
    static func goOn(_ r: Recorder) async throws {
        try await r.answerAll()
        try await r.submit(
            .reloadTimelines(
                GlimpseTimelineV1.ReloadTimelinesRequest(
                    bundleId: "com.example.a", kind: "Board", requestId: "intent/tap/1")))
        var place = GlimpseTimelineV1.PlaceRequest()
        place.bundleId = "com.example.b"
        place.kind = "Board"
        place.family = .systemSmall
        try await r.submit(.place(place))
        for hour in 31...80 {
            try await r.host.advance(to: start.addingTimeInterval(Double(hour) * 1_800))
            try await r.answerAll()
            if hour == 40 {
                try await r.submit(
                    .deviceSettings(GlimpseTimelineV1.SetDeviceSettingsRequest(lowPowerMode: false, locale: "fr_FR")))
            }
        }
    }

    @Test("a snapshot restores the same state, which acts as the original from there")
    func roundTrip() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeline-snapshot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let original = try Recorder(
            journal: Journal(directory: directory, name: "original"), snapshotting: Snapshotting(policy: .off))
        try await Self.build(original)
        #expect(original.fetches.withLock { !$0.isEmpty })
        let saved = try await original.state()

        // The snapshot in a journal of its own; a fresh host starts from it.
        let journal = try Journal(directory: directory, name: "restored")
        try await original.host.copySnapshot(into: journal)
        let restored = try Recorder(journal: journal, snapshotting: Snapshotting(policy: .defaults))
        #expect(restored.opening() != nil)
        #expect(try await restored.state() == saved)
        #expect(await restored.host.nextDue() == original.host.nextDue())
        restored.fetches.withLock { $0 = original.fetches.withLock { $0 } }
        original.effects.withLock { $0 = [] }

        try await Self.goOn(original)
        try await Self.goOn(restored)
        let effects = original.effects.withLock { $0 }
        #expect(effects.count > 100)
        let other = restored.effects.withLock { $0 }
        #expect(other.count == effects.count)
        // The first difference, rather than two arrays of hundreds of effects.
        if let first = zip(effects, other).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record(
                "effect \(first.offset) differs: \(first.element.0) then, \(first.element.1) after the restore")
        }
        #expect(try await restored.state() == original.state())
        #expect(
            await restored.host.read { $0.scheduler.placementIDs } == original.host.read { $0.scheduler.placementIDs })
    }
}

extension TimelineSnapshotTests {
    @Test("snapshots encoded aside while inputs go on restore, with the entries after them, to the live state")
    func snapshotsAside() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeline-snapshot-aside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A snapshot every few inputs, each encoded from a copy while the host goes on; none
        // at close, so the reopened host starts from the last one taken aside.
        var snapshotting = Snapshotting<TimelineState>(policy: SnapshotPolicy(every: 5, atClose: false))
        snapshotting.encodesAside = true
        let original = try Recorder(journal: Journal(directory: directory, name: "aside"), snapshotting: snapshotting)
        try await Self.build(original)
        try await Self.goOn(original)
        await original.host.snapshotAsideSettled()
        #expect(await original.host.snapshotsTaken > 3)
        #expect(await original.host.snapshotFailure == nil)
        let saved = try await original.state()
        let due = await original.host.nextDue()
        try await original.host.close()

        let reopened = try Recorder(
            journal: Journal(directory: directory, name: "aside"), snapshotting: Snapshotting(policy: .off))
        #expect(reopened.opening() != nil)
        #expect(try await reopened.state() == saved)
        #expect(await reopened.host.nextDue() == due)
    }

    @Test("the snapshot covers every stored property but those a start gives")
    func everyFieldIsSaved() {
        let scheduler = TimelineScheduler(clock: HostClock(.manual(start: Self.start)))
        #expect(
            Set(Mirror(reflecting: scheduler).children.compactMap(\.label))
                == Set(TimelineScheduler.FieldKey.allCases.map(\.stringValue)).union([
                    "clock", "settings", "familySizes",
                ]))
        #expect(
            Set(Mirror(reflecting: TimelineState(scheduler: scheduler)).children.compactMap(\.label))
                == Set(TimelineState.FieldKey.allCases.map(\.stringValue)))
    }
}

extension TimelineSnapshotTests.Recorder {
    func opening() -> Int64? { host.opening.restored }
}
