import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Timeline caps (UNCONFIRMED forum numbers as defaults)")
struct TimelineCapTests {
    @Test("by default the caps are the spec's forum numbers: 400 entries and 10 MB are taken, one more is not")
    func defaults() throws {
        let h = try Fixture.harness()
        var entries = 400
        var bytes = 0
        h.provider = { _, now in
            var timeline = Timeline(
                entries: Fixture.entries(from: now, count: entries, spacingMinutes: 5), policy: .never)
            if bytes > 0 { timeline.entries = [TimelineEntry(date: now, content: [UInt8](repeating: 7, count: bytes))] }
            return .timeline(timeline)
        }
        try h.settle()
        #expect(h.scheduler.timeline(of: 1)?.entries.count == 400)
        entries = 401
        h.run { try! $0.reload(1) }
        try h.advance(minutes: 5)
        #expect(!h.effects { $0 == .timelineRejected(1, .tooManyEntries(count: 401, limit: 400)) }.isEmpty)
        #expect(h.scheduler.timeline(of: 1)?.entries.count == 400)  // the last good timeline stays
        bytes = 10 * 1024 * 1024
        h.run { try! $0.reload(1, reason: .intentPerformed) }
        try h.settle()
        #expect(h.scheduler.timeline(of: 1)?.entries.count == 1)
        bytes += 1
        h.run { try! $0.reload(1, reason: .intentPerformed) }
        try h.settle()
        #expect(
            h.effects { if case .timelineRejected(1, .tooManyBytes(_, 10 * 1024 * 1024)) = $0 { true } else { false } }
                .count == 1)
    }

    @Test("\"entry count … per timeline [is] capped\": one over is rejected, the last timeline stays")
    func entryCountCapped() throws {
        var settings = TimelineSettings.defaults
        settings.maxEntriesPerTimeline = 3
        let h = try Fixture.harness(settings: settings)
        var count = 3
        h.provider = { _, now in
            .timeline(Timeline(entries: Fixture.entries(from: now, count: count, spacingMinutes: 1), policy: .never))
        }
        try h.settle()
        #expect(h.scheduler.timeline(of: 1)?.entries.count == 3)
        count = 4
        h.run { try! $0.reload(1) }
        try h.settle()
        #expect(h.effects { $0 == .timelineRejected(1, .tooManyEntries(count: 4, limit: 3)) }.count == 1)
        #expect(h.scheduler.timeline(of: 1)?.entries.count == 3)
        #expect(h.effects { if case .retryScheduled(1, _, 1) = $0 { true } else { false } }.count == 1)
    }

    @Test("\"total size per timeline [is] capped\": content and URL bytes count")
    func byteSizeCapped() throws {
        var settings = TimelineSettings.defaults
        settings.maxTimelineBytes = 10
        let h = try Fixture.harness(settings: settings)
        h.provider = { _, now in
            .timeline(
                Timeline(entries: [TimelineEntry(date: now, content: [UInt8](repeating: 1, count: 6), url: "app://x")]))
        }
        try h.settle()
        #expect(h.effects { $0 == .timelineRejected(1, .tooManyBytes(count: 13, limit: 10)) }.count == 1)
        #expect(h.scheduler.timeline(of: 1) == nil)
        #expect(h.shown(1).map(\.content) == [nil])  // still the placeholder, never an error
    }
}
