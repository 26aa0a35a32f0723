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

@Suite("Push-to-start (S13, F6)")
struct PushToStartTests {
    static func harness(_ config: ActivitySettings = .defaults) throws -> (Harness, PushToken) {
        var h = Harness(config: config)
        let token = try h.engine.pushToStartToken(app: Harness.pizzaApp, attributesType: Harness.pizzaType).get()
        return (h, token)
    }

    @Test("a start push creates an active activity with the alert shown, then issues its update token")
    func startsActivity() throws {
        var (h, token) = try Self.harness()
        guard case .started(let id) = h.push(startBody(at: h.now), to: token) else {
            Issue.record("not started")
            return
        }
        #expect(h.engine.state(of: id) == .active)
        #expect(
            h.engine.activity(id)?.lastAlert == AlertConfiguration(title: "Order placed", body: "Tim is on the way"))
        try h.advance(by: 0)
        let update = try #require(h.engine.activity(id)?.pushToken)
        #expect(h.push(updateBody(at: h.now + 1), to: update) == .applied(id, .active))
    }

    @Test("push-to-start needs no foreground (no visibility error) but still obeys the per-app cap")
    func capsApply() throws {
        var (h, token) = try Self.harness(ActivitySettings(targetMaximum: 1))
        _ = h.push(startBody(at: h.now), to: token)
        #expect(h.push(startBody(at: h.now), to: token) == .rejected(.refused(.targetMaximumExceeded)))
    }

    @Test(
        "push-to-start has its own burst budget (about 10): the 11th is throttled, one returns after the refill interval"
    )
    func burstBudget() throws {
        var (h, token) = try Self.harness(ActivitySettings(targetMaximum: 100))
        for _ in 0..<10 {
            guard case .started = h.push(startBody(at: h.now), to: token) else {
                Issue.record("start refused within the burst")
                return
            }
        }
        let over = h.push(startBody(at: h.now), to: token)
        #expect(over == .throttled(.pushToStartBudgetExceeded(Harness.pizzaApp, budget: 10, retryAfter: h.now + 360)))
        try h.advance(by: 360)
        #expect(!h.push(startBody(at: h.now), to: token).isThrottled)
        #expect(h.push(startBody(at: h.now), to: token).isThrottled)
    }

    @Test("an unknown attributes type is refused; so is a type other than the token's")
    func attributesType() throws {
        var (h, token) = try Self.harness()
        #expect(
            h.push(startBody(at: h.now, type: "Nope"), to: token)
                == .rejected(.invalidPayload(.unknownAttributesType("Nope"))))
        h.engine.install(Harness.pizzaApp, InstalledApp(attributeTypes: [Harness.pizzaType, "Other"]))
        #expect(
            h.push(startBody(at: h.now, type: "Other"), to: token)
                == .rejected(.attributesTypeMismatch(expected: Harness.pizzaType, got: "Other")))
    }

    @Test("update and end are not accepted on a push-to-start token")
    func onlyStart() throws {
        var (h, token) = try Self.harness()
        #expect(h.push(updateBody(at: h.now), to: token).rejection?.apnsReason == "EventNotAllowed")
    }

    @Test("input-push-channel subscribes the new activity to a broadcast channel; broadcast cannot start")
    func channelStartAndBroadcast() throws {
        var (h, token) = try Self.harness()
        let channel = ChannelID("Y2hhbm5lbA==")
        guard
            case .started(let id) = h.push(
                startBody(at: h.now, extra: [("input-push-channel", .string(channel.base64))]), to: token)
        else {
            Issue.record("not started")
            return
        }
        #expect(h.engine.activity(id)?.pushType == .channel(channel))
        let headers = LiveActivityPushHeaders(app: Harness.pizzaApp, channelID: channel)
        let outcomes = h.engine.receiveBroadcast(headers: headers, body: updateBody(at: h.now + 1))
        #expect(outcomes == .success([id: .applied(id, .active)]))
        #expect(
            h.engine.receiveBroadcast(headers: headers, body: startBody(at: h.now + 2))
                == .failure(.broadcastCannotStart))
    }
}
