import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Smart Stack relevance")
struct RelevanceTests {
    /// Three placements; each gets one entry now with the given relevance.
    static func stack(_ relevances: [EntryRelevance?]) throws -> Harness {
        let h = try Fixture.harness(placements: relevances.count)
        h.provider = { request, now in
            let relevance = relevances[Int(request.placement.rawValue) - 1]
            return .timeline(Timeline(entries: [TimelineEntry(date: now, relevance: relevance)], policy: .never))
        }
        try h.settle()
        return h
    }

    @Test("\"order by the current entry's relevance (score within its duration)\"")
    func ordersByScore() throws {
        let h = try Self.stack([
            EntryRelevance(score: 1, duration: 3600), EntryRelevance(score: 5, duration: 600), nil,
        ])
        #expect(h.scheduler.stackOrder([1, 2, 3]) == [2, 1, 3])
        try h.advance(minutes: 11)  // placement 2's score lapsed after 10 minutes
        #expect(h.scheduler.stackOrder([1, 2, 3]) == [1, 2, 3])
        try h.advance(minutes: 60)
        #expect(h.scheduler.stackOrder([3, 2, 1]) == [3, 2, 1])  // none relevant: the stack's own order
    }

    @Test("a duration of 0 (WidgetKit's default) keeps the score while the entry is current")
    func zeroDuration() throws {
        let h = try Self.stack([nil, EntryRelevance(score: 0.5)])
        try h.advance(minutes: 24 * 60)
        #expect(h.scheduler.stackOrder([1, 2]) == [2, 1])
    }

    @Test("the score is the current entry's: a later entry's score takes over at its date")
    func followsCurrentEntry() throws {
        let h = try Fixture.harness(placements: 2)
        h.provider = { request, now in
            let entries =
                request.placement == 1
                ? [
                    TimelineEntry(date: now, relevance: EntryRelevance(score: 3)),
                    TimelineEntry(date: now.addingTimeInterval(1800), relevance: EntryRelevance(score: 1)),
                ]
                : [TimelineEntry(date: now, relevance: EntryRelevance(score: 2))]
            return .timeline(Timeline(entries: entries, policy: .never))
        }
        try h.settle()
        #expect(h.scheduler.stackOrder([2, 1]) == [1, 2])
        try h.advance(minutes: 30)
        #expect(h.scheduler.stackOrder([2, 1]) == [2, 1])
    }
}
