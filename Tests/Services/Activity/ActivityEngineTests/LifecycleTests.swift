#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import ActivityEngine
import EngineTesting
import GlimpseJSON
import GlimpseVocabulary

@Suite("Lifecycle (spec §4)")
struct LifecycleTests {
    @Test("request returns an id and the activity is active, reported as a state change")
    func requestActivates() throws {
        var h = Harness()
        let id = try h.requestPizza()
        #expect(h.engine.state(of: id) == .active)
        #expect(h.engine.drainEvents() == [.stateChanged(id, from: nil, to: .active, reason: .requested)])
    }

    @Test("stale when staleDate passes: active before it, stale at it")
    func staleAtStaleDate() throws {
        var h = Harness()
        let id = try h.requestPizza(staleDate: h.now + 300)
        _ = h.engine.drainEvents()
        try h.advance(by: 299)
        #expect(h.engine.state(of: id) == .active)
        try h.advance(by: 1)
        #expect(h.engine.state(of: id) == .stale)
        #expect(h.engine.drainEvents() == [.stateChanged(id, from: .active, to: .stale, reason: .staleDateReached)])
    }

    @Test("an update with a later stale date makes a stale activity active again")
    func refreshFromStale() throws {
        var h = Harness()
        let id = try h.requestPizza(staleDate: h.now + 60)
        try h.advance(by: 61)
        let refreshed = h.engine.update(id, content: content(["driverName": "John"], staleDate: h.now + 60))
        #expect(refreshed == .applied(.active))
        try h.advance(by: 60)
        #expect(h.engine.state(of: id) == .stale)
    }

    @Test("ended activities ignore updates")
    func endedIgnoresUpdates() throws {
        var h = Harness()
        let id = try h.requestPizza()
        _ = h.engine.end(id)
        let update = h.engine.update(id, content: content(["driverName": "John"]))
        #expect(update == .ignoredBecauseEnded(.ended))
        let endAgain = h.engine.end(id)
        #expect(endAgain == .ignoredBecauseEnded(.ended))
    }

    @Test("at most 8 h active, then ended by the system")
    func eightHourLimit() throws {
        var h = Harness()
        let id = try h.requestPizza()
        try h.advance(by: 8 * 3600 - 1)
        #expect(h.engine.state(of: id) == .active)
        _ = h.engine.drainEvents()
        try h.advance(by: 1)
        #expect(h.engine.state(of: id) == .ended)
        #expect(
            h.engine.drainEvents() == [.stateChanged(id, from: .active, to: .ended, reason: .maximumDurationReached)])
    }

    @Test("on the lock screen at most 4 h after ending: 12 h in all")
    func twelveHoursInAll() throws {
        var h = Harness()
        let id = try h.requestPizza()
        try h.advance(by: 12 * 3600 - 1)
        #expect(h.engine.state(of: id) == .ended)
        try h.advance(by: 1)
        #expect(h.engine.state(of: id) == .dismissed)
        #expect(h.engine.count == 0)
    }

    @Test("one clock jump fires every timer in time order: stale, 8 h end, dismissal")
    func jumpFiresInOrder() throws {
        var h = Harness()
        let id = try h.requestPizza(staleDate: h.now + 600)
        _ = h.engine.drainEvents()
        try h.advance(by: 13 * 3600)
        #expect(
            h.engine.drainEvents() == [
                .stateChanged(id, from: .active, to: .stale, reason: .staleDateReached),
                .stateChanged(id, from: .stale, to: .ended, reason: .maximumDurationReached),
                .stateChanged(id, from: .ended, to: .dismissed, reason: .dismissalDateReached),
            ])
    }

    @Test("a user dismissal ends it and removes it")
    func userDismissal() throws {
        var h = Harness()
        let id = try h.requestPizza()
        _ = h.engine.drainEvents()
        let dismissed = h.engine.dismissByUser(id)
        #expect(dismissed)
        #expect(
            h.engine.drainEvents() == [
                .stateChanged(id, from: .active, to: .ended, reason: .dismissedByUser),
                .stateChanged(id, from: .ended, to: .dismissed, reason: .dismissedByUser),
            ])
        #expect(h.engine.state(of: id) == .dismissed)
        #expect(h.engine.ongoingCount == 0)
    }

    @Test("a scheduled start is pending, counts toward the limit, and becomes active at its date")
    func scheduledStart() throws {
        var h = Harness(config: ActivitySettings(targetMaximum: 1))
        let start = h.now + 600
        let id = try h.engine.request(
            app: Harness.pizzaApp, attributes: pizzaAttributes(),
            content: content(["driverName": "Tim"]), startDate: start
        ).get()
        #expect(h.engine.state(of: id) == .pending)
        #expect(throws: ActivityAuthorizationError.targetMaximumExceeded) { try h.requestPizza() }
        try h.advance(by: 600)
        #expect(h.engine.state(of: id) == .active)
        #expect(h.engine.activity(id)?.activatedAt == start)
        try h.advance(by: 8 * 3600)  // the 8 h count from activation, not request
        #expect(h.engine.state(of: id) == .ended)
    }
}
