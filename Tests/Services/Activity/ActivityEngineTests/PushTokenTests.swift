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

@Suite("Push tokens (S22)")
struct PushTokenTests {
    @Test("an update token is issued asynchronously, after the request returns")
    func tokenIsAsynchronous() throws {
        var h = Harness(config: ActivitySettings(pushTokenDelay: 2))
        let id = try h.requestPizza(pushType: .token)
        #expect(h.engine.activity(id)?.pushToken == nil)
        try h.advance(by: 1)
        #expect(h.engine.activity(id)?.pushToken == nil)
        _ = h.engine.drainEvents()
        try h.advance(by: 1)
        let token = try #require(h.engine.activity(id)?.pushToken)
        #expect(h.engine.drainEvents() == [.pushTokenIssued(id, token)])
        #expect(h.engine.activityID(forUpdateToken: token) == id)
    }

    @Test("an activity ended before its token is due never gets one")
    func noTokenAfterEnd() throws {
        var h = Harness(config: ActivitySettings(pushTokenDelay: 2))
        let id = try h.requestPizza(pushType: .token)
        #expect(h.engine.end(id) == .applied(.ended, dismissalDate: h.now + 4 * 3600))
        _ = h.engine.drainEvents()
        try h.advance(by: 10)
        #expect(h.engine.activity(id)?.pushToken == nil)
        #expect(!h.engine.drainEvents().contains { if case .pushTokenIssued = $0 { true } else { false } })
    }

    @Test("an activity without pushType .token gets no token")
    func noTokenWithoutPushType() throws {
        var h = Harness()
        let id = try h.requestPizza()
        try h.advance(by: 10)
        #expect(h.engine.activity(id)?.pushToken == nil)
    }

    @Test("a rotated token replaces the old one: the old token is rejected, the new one works")
    func rotation() throws {
        var h = Harness()
        let (id, old) = try h.pushablePizza()
        let rotated = h.engine.rotatePushToken(id)
        let new = try #require(rotated)
        #expect(new != old)
        #expect(h.push(updateBody(at: h.now), to: old) == .rejected(.badDeviceToken))
        #expect(h.push(updateBody(at: h.now), to: new) == .applied(id, .active))
    }

    @Test("a dismissed activity's token stops working")
    func dismissedTokenRetired() throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        _ = h.engine.end(id, dismissalPolicy: .immediate)
        #expect(h.push(updateBody(at: h.now), to: token) == .rejected(.badDeviceToken))
    }

    @Test("push-to-start tokens are per app and attributes type, stable until rotated")
    func pushToStartTokens() throws {
        var h = Harness()
        let pizza = try h.engine.pushToStartToken(app: Harness.pizzaApp, attributesType: Harness.pizzaType).get()
        #expect(try h.engine.pushToStartToken(app: Harness.pizzaApp, attributesType: Harness.pizzaType).get() == pizza)
        let film = try h.engine.pushToStartToken(app: Harness.filmApp, attributesType: Harness.filmType).get()
        #expect(film != pizza)
        #expect(
            h.engine.pushToStartToken(app: Harness.pizzaApp, attributesType: "Nope") == .failure(.unsupportedTarget))
        let rotated = try h.engine.rotatePushToStartToken(app: Harness.pizzaApp, attributesType: Harness.pizzaType)
            .get()
        #expect(h.push(startBody(at: h.now), to: pizza) == .rejected(.badDeviceToken))
        #expect(
            h.engine.drainEvents().last
                == .pushToStartTokenIssued(Harness.pizzaApp, attributesType: Harness.pizzaType, rotated))
    }
}
