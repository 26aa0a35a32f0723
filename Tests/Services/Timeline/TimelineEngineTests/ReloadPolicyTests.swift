import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting
import FoundationEssentials

@Suite("Reload policies")
struct ReloadPolicyTests {
    @Test("\".atEnd: request new timeline after last entry's date passes\"")
    func atEnd() throws {
        let h = try Fixture.harness()
        h.provider = { _, now in
            .timeline(Timeline(entries: Fixture.entries(from: now, count: 3, spacingMinutes: 20), policy: .atEnd))
        }
        try h.advance(minutes: 100)
        // Entries at +0, +20, +40 of each timeline; the next call when the last one's date comes.
        #expect(h.fetchMinutes(of: 1) == [0, 40, 80])
        #expect(h.fetches(of: 1).dropFirst().allSatisfy { $0.request.reason == .policy && $0.request.charged })
    }

    @Test("\".after(d): earliest next request\" — before the last entry")
    func afterBeforeLastEntry() throws {
        let h = try Fixture.harness()
        h.provider = { _, now in
            .timeline(
                Timeline(
                    entries: Fixture.entries(from: now, count: 4, spacingMinutes: 30),
                    policy: .after(now.addingTimeInterval(15 * 60))))
        }
        try h.advance(minutes: 50)
        #expect(h.fetchMinutes(of: 1) == [0, 15, 30, 45])
    }

    @Test("\".after(d)\" — after the last entry: the last entry stays until then")
    func afterAfterLastEntry() throws {
        let h = try Fixture.harness()
        h.provider = { _, now in
            .timeline(
                Timeline(
                    entries: Fixture.entries(from: now, count: 2, spacingMinutes: 10),
                    policy: .after(now.addingTimeInterval(60 * 60))))
        }
        try h.advance(minutes: 125)
        #expect(h.fetchMinutes(of: 1) == [0, 60, 120])
        #expect(h.shown(1).map(\.minute) == [0, 0, 10, 60, 70, 120])
    }

    @Test("\".never: no automatic request; app must call WidgetCenter reload\"")
    func never() throws {
        let h = try Fixture.harness()
        try h.advance(minutes: 3 * 24 * 60)
        #expect(h.fetchMinutes(of: 1) == [0])
        #expect(h.scheduler.nextDeadline() == nil)
        h.run { $0.reloadTimelines(ofKind: Fixture.kind, app: Fixture.app) }
        try h.settle()
        #expect(h.fetchMinutes(of: 1) == [0, 3 * 24 * 60])
    }
}
