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

/// The demo apps of seeds 000 (Pixar film playback) and 002 (pizza delivery).
@Suite("Seed flows")
struct SeedFlowTests {
    /// `ClosedRange<Date>` as the default JSONEncoder writes it: [lower, upper] in
    /// seconds since 2001 (spec §5: content-state uses the default JSONDecoder).
    func deliveryState(driver: String, from: Date, minutes: Double) -> JSONValue {
        let lower = from.timeIntervalSinceReferenceDate
        return [
            "driverName": .string(driver), "estimatedDeliveryTime": [.number(lower), .number(lower + minutes * 60)],
        ]
    }

    @Test("seed 002: start with driver Tim and a 15-minute range, update to John and 60 minutes, end immediately")
    func pizzaDelivery() throws {
        var h = Harness()
        let start = h.engine.request(
            app: Harness.pizzaApp, attributes: pizzaAttributes(pizzas: 1),
            content: ActivityContent(state: try JSONObjectBytes(deliveryState(driver: "Tim", from: h.now, minutes: 15)))
        )
        let id = try start.get()
        try h.advance(by: 450)  // the demo's midpoint reassignment
        let john = try JSONObjectBytes(deliveryState(driver: "John", from: h.now, minutes: 60))
        let update = h.engine.update(id, content: ActivityContent(state: john))
        #expect(update == .applied(.active))
        #expect(h.engine.activity(id)?.content.state == john)
        let end = h.engine.end(id, dismissalPolicy: .immediate)
        #expect(end == .applied(.dismissed, dismissalDate: h.now))
        #expect(
            h.engine.drainEvents() == [
                .stateChanged(id, from: nil, to: .active, reason: .requested),
                .contentUpdated(id, ActivityContent(state: john), alert: nil),
                .stateChanged(id, from: .active, to: .ended, reason: .endedByApp),
                .stateChanged(id, from: .ended, to: .dismissed, reason: .dismissedImmediately),
            ])
        #expect(h.engine.activities(of: Harness.pizzaApp).isEmpty)
    }

    @Test("seed 000: the film activity goes stale 5 minutes after its last update, and is ended after 8 hours")
    func filmPlayback() throws {
        var h = Harness()
        let id = try h.requestFilm()
        let scene = { (name: String, minute: Int) in
            content(
                [
                    "currentScene": .string(name), "elapsedMinutes": .number(minute), "isPlaying": true,
                    "chapterProgress": 0.25,
                ], staleDate: h.now + 300)
        }
        _ = h.engine.update(id, content: scene("Remember Me", 20))
        try h.advance(by: 299)
        #expect(h.engine.state(of: id) == .active)
        try h.advance(by: 1)
        #expect(h.engine.state(of: id) == .stale)  // no update for 5 minutes
        let refreshed = h.engine.update(id, content: scene("Land of the Dead", 45))
        #expect(refreshed == .applied(.active))
        try h.advance(to: (h.engine.activity(id)?.activatedAt)! + 8 * 3600)
        #expect(h.engine.state(of: id) == .ended)
        #expect(h.engine.presentation().dynamicIsland == .none)
        #expect(h.engine.presentation().lockScreen == [id])
    }
}
