import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

/// Seed 000, "WidgetKit and Live Activities" — the Pixar Film Tracker:
///
///     // Build entries for the next hour in 15-minute increments
///     for minuteOffset in stride(from: 0, through: 60, by: 15) { … }
///     // .atEnd: system calls getTimeline again when the last entry expires
///     let timeline = Timeline(entries: entries, policy: .atEnd)
///
/// `stride(from: 0, through: 60, by: 15)` makes five entries (0, 15, 30, 45, 60): four
/// 15-minute steps.
@Suite("Seed 000: Pixar Film Tracker")
struct PixarTrackerSeedTests {
    static let app: AppID = "com.example.pixartracker"
    static let kind = "PixarFilmWidget"

    static func tracker(progress: @escaping () -> Int = { 42 }) throws -> Harness {
        let h = Harness()
        try h.scheduler.install(
            app: app,
            kinds: [
                WidgetKind(
                    kind: kind, displayName: "Pixar Now Playing",
                    description: "Shows the Pixar film you're currently watching.",
                    supportedFamilies: [
                        .systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular,
                    ])
            ])
        h.provider = { _, now in
            let entries = stride(from: 0, through: 60, by: 15).map { minute in
                TimelineEntry(
                    date: now.addingTimeInterval(Double(minute) * 60),
                    content: Array("Coco \(progress())% +\(minute)".utf8))
            }
            return .timeline(Timeline(entries: entries, policy: .atEnd))
        }
        try h.run { try $0.place(Placement(id: 1, app: app, kind: kind, family: .systemMedium)) }
        return h
    }

    @Test("five entries 15 minutes apart show in turn; .atEnd asks again when the last (minute 60) comes")
    func fifteenMinuteEntriesAtEnd() throws {
        let h = try Self.tracker()
        try h.advance(minutes: 125)
        #expect(h.fetchMinutes(of: 1) == [0, 60, 120])
        let changes = h.shown(1)
        // At 60 the old timeline's last entry shows, then the new timeline's first.
        #expect(changes.map(\.minute) == [0, 0, 15, 30, 45, 60, 60, 75, 90, 105, 120, 120])
        #expect(changes[1].content == Array("Coco 42% +0".utf8))
        #expect(changes[4].content == Array("Coco 42% +45".utf8))
        #expect(h.scheduler.timeline(of: 1)?.entries.count == 5)
    }

    @Test("markFilmWatched → reloadTimelines(ofKind: \"PixarFilmWidget\") reloads every Pixar placement once")
    func reloadOfKindAfterMarkingWatched() throws {
        var progress = 42
        let h = try Self.tracker(progress: { progress })
        try h.run { try $0.place(Placement(id: 2, app: Self.app, kind: Self.kind, family: .accessoryCircular)) }
        try h.advance(minutes: 20)
        progress = 100
        h.run { $0.reloadTimelines(ofKind: Self.kind, app: Self.app) }
        try h.settle()
        #expect(h.fetchMinutes(of: 1) == [0, 20])
        #expect(h.fetchMinutes(of: 2) == [0, 20])
        #expect(h.scheduler.currentEntry(of: 2)?.content == Array("Coco 100% +0".utf8))
        #expect(h.fetches(of: 2).last?.request.context.displaySize == DisplaySize(width: 72, height: 72))
    }

    @Test("\"show the last-known state rather than an error\" when the provider fails")
    func lastKnownStateOnFailure() throws {
        let h = try Self.tracker()
        try h.advance(minutes: 50)
        h.provider = { _, _ in .failure }
        try h.advance(minutes: 30)
        #expect(h.scheduler.currentEntry(of: 1)?.content == Array("Coco 42% +60".utf8))
        #expect(h.fetchMinutes(of: 1).prefix(3) == [0, 60, 61])
    }
}
