import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting
import FoundationEssentials

@Suite("Which entry shows")
struct EntrySelectionTests {
    @Test("\"The entry shown at time t is the latest entry whose date ≤ t; before the first entry, the placeholder\"")
    func latestEntryAtOrBefore() throws {
        let h = try Fixture.harness()
        // First entry 10 minutes in the future, then every 10 minutes.
        h.provider = { _, now in
            .timeline(
                Timeline(
                    entries: Fixture.entries(from: now.addingTimeInterval(600), count: 3, spacingMinutes: 10),
                    policy: .never))
        }
        try h.advance(minutes: 45)
        let shown = h.shown(1)
        #expect(shown.map(\.minute) == [0, 10, 20, 30])
        #expect(shown.map(\.content) == [nil, [0], [1], [2]])
        #expect(h.scheduler.currentEntry(of: 1)?.content == [2])
    }

    @Test("a change the provider's answer brought is marked answered; one the clock brought is not")
    func answeredChangesAreMarked() throws {
        let h = try Fixture.harness()
        h.provider = { _, now in
            .timeline(Timeline(entries: Fixture.entries(from: now, count: 3, spacingMinutes: 10), policy: .never))
        }
        try h.advance(minutes: 25)
        // Each entryChanged, and whether an entryAnswered of the same placement follows it at once.
        var marks: [(content: [UInt8]?, answered: Bool)] = []
        let effects = h.effects { _ in true }
        for (index, effect) in effects.enumerated() {
            guard case .entryChanged(1, let entry) = effect else { continue }
            let next = effects.indices.contains(index + 1) ? effects[index + 1] : nil
            marks.append((entry?.entry.content, next == .entryAnswered(1)))
        }
        // The placeholder at placement, the answer's first entry, then two that came due.
        #expect(marks.map(\.content) == [nil, [0], [1], [2]])
        #expect(marks.map(\.answered) == [false, true, false, false])
        #expect(h.effects { $0 == .entryAnswered(1) }.count == 1)
    }

    @Test("\"entries are kept sorted\": out-of-order entries show in date order")
    func entriesSorted() throws {
        let h = try Fixture.harness()
        h.provider = { _, now in
            let entries = [20.0, 0, 10].map {
                TimelineEntry(date: now.addingTimeInterval($0 * 60), content: [UInt8($0)])
            }
            return .timeline(Timeline(entries: entries, policy: .never))
        }
        try h.advance(minutes: 25)
        #expect(h.shown(1).map(\.content) == [nil, [0], [10], [20]])
        #expect(h.scheduler.timeline(of: 1)?.entries.map(\.content) == [[0], [10], [20]])
    }

    @Test("two entries with the same date: the later one in the provider's list wins")
    func equalDates() throws {
        let h = try Fixture.harness()
        h.provider = { _, now in
            .timeline(
                Timeline(
                    entries: [TimelineEntry(date: now, content: [1]), TimelineEntry(date: now, content: [2])],
                    policy: .never))
        }
        try h.settle()
        #expect(h.scheduler.currentEntry(of: 1)?.content == [2])
    }

    @Test("a new timeline whose current entry is the same as before does not report a change")
    func unchangedEntryNotReported() throws {
        let h = try Fixture.harness()
        let fixed = h.date(minutes: 0)
        h.provider = { _, _ in .timeline(Timeline(entries: [TimelineEntry(date: fixed, content: [7])], policy: .never))
        }
        try h.settle()
        try h.advance(minutes: 10)
        h.run { try! $0.reload(1) }
        try h.settle()
        #expect(h.fetches(of: 1).count == 2)
        #expect(h.shown(1).map(\.content) == [nil, [7]])
    }

    @Test("entries keep their relevance, content bytes and widget URL")
    func entryFieldsRoundTrip() throws {
        let h = try Fixture.harness()
        let entry = TimelineEntry(
            date: h.date(minutes: 0), relevance: EntryRelevance(score: 2.5, duration: 900),
            content: Array("{\"text\":\"Coco\"}".utf8), url: "pixartracker://film/Coco")
        h.provider = { _, _ in
            .timeline(Timeline(entries: [entry, TimelineEntry(date: h.date(minutes: 5))], policy: .never))
        }
        try h.settle()
        #expect(h.scheduler.currentEntry(of: 1) == entry)
        #expect(h.scheduler.timeline(of: 1)?.entries.last?.url == nil)
    }
}
