import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import FoundationEssentials

@Suite("A stored timeline and the entries it names")
struct StoredTimelineTests {
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func entry(_ minutes: Double, _ content: [UInt8], url: String? = nil, score: Float? = nil) -> TimelineEntry {
        TimelineEntry(
            date: start.addingTimeInterval(minutes * 60),
            relevance: score.map { EntryRelevance(score: $0, duration: 60) },
            content: content, url: url)
    }

    static func stored(_ entries: [TimelineEntry]) throws -> StoredTimeline {
        try StoredTimeline.make(Timeline(entries: entries, policy: .never), maxEntries: 100, maxBytes: 10_000)
    }

    @Test("packing keeps every part of every entry, sorted stably by date")
    func packsAndUnpacks() throws {
        let given = [
            Self.entry(20, [3, 3], url: "app://c"), Self.entry(0, [], score: 0.5), Self.entry(10, [1]),
            Self.entry(10, [2], url: "app://b", score: 0.25), Self.entry(30, Array(repeating: 9, count: 300)),
        ]
        let timeline = try Self.stored(given)
        let expected = [given[1], given[2], given[3], given[0], given[4]]
        #expect(timeline.timeline.entries == expected)
        #expect(timeline.byteCount == 1 + 1 + 2 + 300 + "app://b".utf8.count + "app://c".utf8.count)
        #expect(try Self.stored(expected).timeline.entries == expected)  // already in order
        #expect(try Self.stored([]).count == 0)
    }

    @Test("a shown entry unpacks to its entry and equals another timeline's entry with the same parts")
    func shownEntries() throws {
        let a = try Self.stored([Self.entry(0, [1, 2]), Self.entry(10, [3], url: "app://x", score: 1)])
        let b = try Self.stored([Self.entry(5, [0]), Self.entry(10, [3], url: "app://x", score: 1)])
        #expect(ShownEntry(a, 1).entry == Self.entry(10, [3], url: "app://x", score: 1))
        #expect(ShownEntry(a, 1) == ShownEntry(b, 1))
        #expect(ShownEntry(a, 1).hashValue == ShownEntry(b, 1).hashValue)
        #expect(Set([ShownEntry(a, 0), ShownEntry(a, 1), ShownEntry(b, 1)]).count == 2)
        let otherURL = try Self.stored([Self.entry(10, [3], url: "app://y", score: 1)])
        let otherScore = try Self.stored([Self.entry(10, [3], url: "app://x", score: 0.5)])
        let otherBytes = try Self.stored([Self.entry(10, [4], url: "app://x", score: 1)])
        for other in [otherURL, otherScore, otherBytes] { #expect(ShownEntry(a, 1) != ShownEntry(other, 0)) }
        #expect(ShownEntry(a, 0).withContent { Array($0) } == [1, 2])
    }

    @Test("an entry change names the entry in the placement's timeline")
    func entryChangeCarriesTheEntry() throws {
        let h = try Fixture.harness()
        h.provider = { _, now in
            .timeline(
                Timeline(
                    entries: [TimelineEntry(date: now, content: [1]), TimelineEntry(date: now + 600, content: [2])],
                    policy: .never))
        }
        try h.advance(minutes: 15)
        let changes = h.effects {
            if case .entryChanged(1, let entry?) = $0 { entry.entry.content == [2] } else { false }
        }
        #expect(changes.count == 1)
    }
}
