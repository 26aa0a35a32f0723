import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Explicit reloads")
struct ExplicitReloadTests {
    /// Two kinds of one app and one kind of another, two placements each; policy `.never`.
    static func twoApps() throws -> Harness {
        let h = Harness()
        try h.scheduler.install(app: Fixture.app, kinds: [Fixture.widget(), Fixture.widget(Fixture.otherKind)])
        try h.scheduler.install(app: "com.other", kinds: [Fixture.widget()])
        let placements: [(PlacementID, AppID, String)] = [
            (1, Fixture.app, Fixture.kind), (2, Fixture.app, Fixture.kind),
            (3, Fixture.app, Fixture.otherKind), (4, Fixture.app, Fixture.otherKind),
            (5, "com.other", Fixture.kind), (6, "com.other", Fixture.kind),
        ]
        for (id, app, kind) in placements {
            try h.run { try $0.place(Placement(id: id, app: app, kind: kind, family: .systemSmall)) }
        }
        try h.advance(minutes: 30)
        return h
    }

    static func reloaded(_ h: Harness) -> Set<PlacementID> {
        Set(h.fetches().filter { $0.minute > 0 }.map(\.request.placement))
    }

    @Test("\"reloadTimelines(ofKind:)\" reloads all widgets of that kind of that app")
    func ofKind() throws {
        let h = try Self.twoApps()
        h.run { $0.reloadTimelines(ofKind: Fixture.kind, app: Fixture.app) }
        try h.settle()
        #expect(Self.reloaded(h) == [1, 2])
        #expect(
            h.fetches().filter { $0.minute > 0 }.allSatisfy { $0.request.reason == .appRequest && $0.request.charged })
    }

    @Test("\"reloadAllTimelines()\" reloads every widget of the app, and only that app")
    func all() throws {
        let h = try Self.twoApps()
        h.run { $0.reloadAllTimelines(app: Fixture.app) }
        try h.settle()
        #expect(Self.reloaded(h) == [1, 2, 3, 4])
    }

    @Test("reloading one placement (after an intent) reloads just it, free")
    func onePlacement() throws {
        let h = try Self.twoApps()
        try h.run { try $0.reload(3, reason: .intentPerformed) }
        try h.settle()
        #expect(Self.reloaded(h) == [3])
        #expect(h.fetches(of: 3).last?.request.charged == false)
        #expect(throws: PlacementError.unknownPlacement(99)) { try h.scheduler.reload(99) }
    }

    @Test("\"Requests before dispatch coalesce into one provider call\"")
    func coalesce() throws {
        let h = try Self.twoApps()
        h.run { $0.reloadTimelines(ofKind: Fixture.kind, app: Fixture.app) }
        h.run { $0.reloadAllTimelines(app: Fixture.app) }
        try h.run { try $0.reload(1) }
        #expect(h.fetches().count == 6)  // nothing dispatched yet
        try h.settle()
        #expect(h.fetches(of: 1).count == 2)
        #expect(h.fetches(of: 2).count == 2)
        #expect(h.fetches(of: 1).last?.request.charged == false)  // the free request carried it
    }

    @Test("with a dispatch delay, requests within the delay coalesce and go out when it ends")
    func coalesceWithinDelay() throws {
        var settings = TimelineSettings.defaults
        settings.reloadDispatchDelay = 2
        let h = try Fixture.harness(settings: settings)
        try h.advance(minutes: 10)
        h.run { $0.reloadAllTimelines(app: Fixture.app) }
        try h.advance(minutes: 1.0 / 60)
        h.run { $0.reloadAllTimelines(app: Fixture.app) }
        try h.advance(minutes: 1)
        #expect(h.fetches(of: 1).map { $0.minute * 60 } == [2, 602])
    }

    @Test("a request made while a call is in flight causes exactly one more call after it")
    func requestDuringFlight() throws {
        let h = try Fixture.harness()
        try h.advance(minutes: 10)
        h.provider = { _, _ in .silence }
        try h.run { try $0.reload(1) }
        try h.settle()
        try h.run { try $0.reload(1) }
        try h.run { try $0.reload(1) }
        try h.settle()
        #expect(h.fetches(of: 1).count == 2)
        let inFlight = try #require(h.unanswered.first)
        h.answer(inFlight, with: .timeline(Timeline(entries: [TimelineEntry(date: h.clock.now)], policy: .never)))
        try h.settle()
        #expect(h.fetches(of: 1).count == 3)
    }
}
