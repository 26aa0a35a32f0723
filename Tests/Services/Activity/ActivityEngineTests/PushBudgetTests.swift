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

@Suite("Push budgets (spec §5)")
struct PushBudgetTests {
    @Test("priority 10 counts against an hourly budget (default 15): the 16th in an hour is throttled with a reason")
    func hourlyBudget() throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        let start = h.now
        for n in 0..<15 {
            #expect(h.push(updateBody(at: h.now), to: token) == .applied(id, .active), "push \(n)")
            try h.advance(by: 60)
        }
        let over = h.push(updateBody(at: h.now), to: token)
        #expect(over == .throttled(.hourlyBudgetExceeded(id, budget: 15, retryAfter: start + 3600)))
        #expect(ThrottleReason.hourlyBudgetExceeded(id, budget: 15, retryAfter: start).apnsStatus == 429)
        try h.advance(to: start + 3600)
        #expect(h.push(updateBody(at: h.now), to: token) == .applied(id, .active))
    }

    @Test("a rejected push does not spend the budget: the checks that refuse come before the charge")
    func rejectedPushNotCharged() throws {
        // Attributes count toward the 4 KB here, so a content state that fits alone can still be refused.
        var h = Harness(config: ActivitySettings(contentStateLimit: 1000, attributesCountTowardLimit: true))
        let (id, token) = try h.pushablePizza()
        let attributes = pizzaAttributes().value.count
        // Fits alone (≤ 1000 bytes), not with the attributes.
        let tooBig = JSONValue.object([
            JSONMember("d", .string(String(repeating: "x", count: 1000 - 8 - attributes + 1)))
        ])
        for _ in 0..<20 {
            #expect(h.push(updateBody(at: h.now, state: tooBig), to: token) == .rejected(.refused(.attributesTooLarge)))
            #expect(
                h.push(pushBody([("timestamp", seconds(h.now)), ("event", "update")]), to: token)
                    == .rejected(.invalidPayload(.missingField("aps.content-state"))))
        }
        for n in 0..<15 {
            #expect(h.push(updateBody(at: h.now), to: token) == .applied(id, .active), "push \(n)")
        }
    }

    @Test("priority 5 does not count against the budget")
    func priorityFiveFree() throws {
        var h = Harness(config: ActivitySettings(hourlyPushBudget: 2))
        let (id, token) = try h.pushablePizza()
        for _ in 0..<2 { _ = h.push(updateBody(at: h.now), to: token) }
        for _ in 0..<20 {
            #expect(h.push(updateBody(at: h.now), to: token, headers: pizzaHeaders5) == .applied(id, .active))
        }
        #expect(h.push(updateBody(at: h.now), to: token).isThrottled)
    }

    @Test("frequent updates raise the hourly budget (setting, default 120), and the user can turn it off")
    func frequentUpdates() throws {
        var h = Harness()
        h.engine.install(
            Harness.pizzaApp, InstalledApp(attributeTypes: [Harness.pizzaType], supportsFrequentUpdates: true))
        #expect(h.engine.hourlyBudget(for: Harness.pizzaApp) == 120)
        #expect(h.engine.authorizationInfo(for: Harness.pizzaApp).frequentPushesEnabled)
        let (_, token) = try h.pushablePizza()
        for _ in 0..<120 { #expect(!h.push(updateBody(at: h.now), to: token).isThrottled) }
        #expect(h.push(updateBody(at: h.now), to: token).isThrottled)
        h.engine.setFrequentUpdatesEnabled(false, for: Harness.pizzaApp)
        #expect(h.engine.hourlyBudget(for: Harness.pizzaApp) == 15)
    }

    @Test("priority 5 may be delivered later or coalesced: with a delay, the newest waiting push wins")
    func lowPriorityCoalesced() throws {
        var h = Harness(config: ActivitySettings(lowPriorityDelay: 30))
        let (id, token) = try h.pushablePizza()
        let due = h.now + 30
        #expect(
            h.push(updateBody(at: h.now, state: ["driverName": "A"]), to: token, headers: pizzaHeaders5)
                == .deferred(id, until: due))
        try h.advance(by: 10)
        #expect(
            h.push(updateBody(at: h.now, state: ["driverName": "B"]), to: token, headers: pizzaHeaders5)
                == .coalesced(id, until: due))
        try h.advance(by: 19)
        #expect(h.engine.activity(id)?.content.state.bytes == bytes(#"{"driverName":"Tim"}"#))
        try h.advance(by: 1)
        #expect(h.engine.activity(id)?.content.state.bytes == bytes(#"{"driverName":"B"}"#))
    }

    @Test("a deferred push that no longer applies when due is reported, not lost")
    func deferredDropReported() throws {
        var h = Harness(config: ActivitySettings(lowPriorityDelay: 30))
        let (id, token) = try h.pushablePizza()
        _ = h.push(updateBody(at: h.now), to: token, headers: pizzaHeaders5)
        _ = h.engine.update(id, content: content(["driverName": "Local"]), timestamp: h.now + 5)
        _ = h.engine.drainEvents()
        try h.advance(by: 30)
        let events = h.engine.drainEvents()
        #expect(events.contains { if case .deferredPushDropped(id, .droppedAsStale) = $0 { true } else { false } })
    }
}

extension PushOutcome {
    var isThrottled: Bool {
        if case .throttled = self { return true }
        return false
    }
}
