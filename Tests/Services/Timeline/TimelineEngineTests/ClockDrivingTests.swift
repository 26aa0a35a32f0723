import Foundation
import GlimpseVocabulary
import Testing
@testable import TimelineEngine
import EngineTesting

@Suite("The clock drives everything")
struct ClockDrivingTests {
    @Test("\"Advancing a virtual clock makes everything that falls due happen in time order\"")
    func timeOrder() throws {
        let h = try Fixture.harness(placements: 20)
        h.provider = { request, now in
            // Placement n: entries every n minutes, asking again at the end.
            let n = Double(request.placement.rawValue)
            return .timeline(Timeline(entries: Fixture.entries(from: now, count: 4, spacingMinutes: n), policy: .atEnd))
        }
        try h.advance(minutes: 6 * 60)
        for id in 1...20 {
            let n = Double(id)
            let placement = PlacementID(UInt64(id))
            let fetches = h.fetchMinutes(of: placement)
            let changes = h.shown(placement).dropFirst()
            #expect(changes.count > 4)
            // Entry k of the timeline fetched at f is dated f + k·n: it must show exactly then,
            // neither late (a deadline fired after a later one) nor early.
            for change in changes {
                let k = Double(try #require(change.content?.first))
                #expect(
                    fetches.contains { $0 + k * n == change.minute }, "placement \(id) entry \(k) at \(change.minute)")
            }
            // `.atEnd` asks again when the last entry (3n) comes, or after the 5-minute spacing.
            for (a, b) in zip(fetches, fetches.dropFirst()) { #expect(b - a == max(3 * n, 5)) }
        }
    }

    @Test("one late fireDue() still handles due work earliest first")
    func lateFireInOrder() throws {
        let h = try Fixture.harness(placements: 2)
        h.provider = { request, now in
            let offset: Double = request.placement == 1 ? 10 : 5
            return .timeline(
                Timeline(
                    entries: [TimelineEntry(date: now), TimelineEntry(date: now.addingTimeInterval(offset * 60))],
                    policy: .never))
        }
        try h.settle()
        try h.clock.advance(by: 20 * 60)  // no driving: both entries fall due unseen
        let effects = h.scheduler.fireDue()
        let order = effects.compactMap { if case .entryChanged(let id, _) = $0 { id } else { nil } }
        #expect(order == [2, 1])
    }

    @Test("\"next wake-up time\" is reported whenever it moves, and nil when nothing is scheduled")
    func nextWakeUp() throws {
        let h = Harness()
        try h.scheduler.install(app: Fixture.app, kinds: [Fixture.widget()])
        var effects = try h.scheduler.place(
            Placement(id: 1, app: Fixture.app, kind: Fixture.kind, family: .systemSmall))
        #expect(effects.last == .nextWakeUp(h.clock.now))
        #expect(h.scheduler.nextDeadline() == h.clock.now)
        effects = h.scheduler.fireDue()
        let request = try #require(effects.compactMap { if case .fetchTimeline(let r) = $0 { r } else { nil } }.first)
        #expect(effects.last == .nextWakeUp(h.clock.now.addingTimeInterval(30)))  // the call's timeout
        effects = h.scheduler.timelineReceived(
            Timeline(entries: [TimelineEntry(date: h.clock.now)], policy: .after(h.date(minutes: 45))), for: request.id)
        #expect(effects.last == .nextWakeUp(h.date(minutes: 45)))
        effects = h.scheduler.fireDue()
        #expect(effects.isEmpty)  // nothing due, nothing moved
    }

    @Test("work that nothing wants leaves no deadline behind")
    func idle() throws {
        let h = try Fixture.harness(placements: 3)
        try h.settle()
        #expect(h.scheduler.nextDeadline() == nil)
        try h.advance(minutes: 7 * 24 * 60)
        #expect(h.fetches().count == 3)
    }
}
