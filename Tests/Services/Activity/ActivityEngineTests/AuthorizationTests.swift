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

@Suite("ActivityAuthorizationError (S14)")
struct AuthorizationTests {
    @Test("denied: the device's Live Activities setting is off")
    func deniedDevice() {
        var h = Harness(device: DeviceSettings(liveActivitiesEnabled: false))
        #expect(throws: ActivityAuthorizationError.denied) { try h.requestPizza() }
    }

    @Test("denied: the user turned Live Activities off for the app")
    func deniedApp() {
        var h = Harness()
        h.engine.setActivitiesEnabled(false, for: Harness.pizzaApp)
        #expect(h.engine.authorizationInfo(for: Harness.pizzaApp).areActivitiesEnabled == false)
        #expect(throws: ActivityAuthorizationError.denied) { try h.requestPizza() }
    }

    @Test("unsupported: the device has no Live Activities")
    func unsupported() {
        var h = Harness(device: DeviceSettings(supportsLiveActivities: false))
        #expect(throws: ActivityAuthorizationError.unsupported) { try h.requestPizza() }
    }

    @Test("unsupportedTarget: the app does not declare the attributes type")
    func unsupportedTarget() {
        var h = Harness()
        #expect(throws: ActivityAuthorizationError.unsupportedTarget) { try h.requestPizza(app: "com.example.other") }
    }

    @Test("targetMaximumExceeded: 5 per app by default, the 6th is refused")
    func targetMaximum() throws {
        var h = Harness()
        for _ in 0..<5 { _ = try h.requestPizza() }
        #expect(throws: ActivityAuthorizationError.targetMaximumExceeded) { try h.requestPizza() }
        #expect(throws: Never.self) { try h.requestFilm() }  // another app has its own count
    }

    @Test("globalMaximumExceeded: the per-device cap counts every app")
    func globalMaximum() throws {
        var h = Harness(config: ActivitySettings(globalMaximum: 3))
        _ = try h.requestPizza()
        _ = try h.requestPizza()
        _ = try h.requestFilm()
        #expect(throws: ActivityAuthorizationError.globalMaximumExceeded) { try h.requestFilm() }
    }

    @Test(
        "attributesTooLarge: a content state of 4,096 encoded bytes is accepted, 4,097 refused",
        arguments: [(4095, true), (4096, true), (4097, false)])
    func contentStateLimit(size: Int, accepted: Bool) throws {
        var h = Harness()
        let result = h.engine.request(
            app: Harness.pizzaApp, attributes: pizzaAttributes(),
            content: ActivityContent(state: state(ofEncodedSize: size)))
        #expect(((try? result.get()) != nil) == accepted)
        if !accepted { #expect(result == .failure(.attributesTooLarge)) }

        let id = try h.requestPizza()
        let update = h.engine.update(id, content: ActivityContent(state: state(ofEncodedSize: size)))
        #expect(update == (accepted ? .applied(.active) : .rejected(.attributesTooLarge)))
    }

    @Test("static attributes do not count toward the 4 KB by default (F9), and do when configured")
    func attributesCount() {
        let bigAttributes = ActivityAttributesPayload(typeName: Harness.pizzaType, value: state(ofEncodedSize: 4000))
        let small = ActivityContent(state: state(ofEncodedSize: 200))
        var h = Harness()
        let plain = h.engine.request(app: Harness.pizzaApp, attributes: bigAttributes, content: small)
        #expect((try? plain.get()) != nil)
        var counting = Harness(config: ActivitySettings(attributesCountTowardLimit: true))
        let counted = counting.engine.request(app: Harness.pizzaApp, attributes: bigAttributes, content: small)
        #expect(counted == .failure(.attributesTooLarge))
    }

    @Test("visibility: a request while the app is not in the foreground is refused; a LiveActivityIntent may start one")
    func visibility() {
        var h = Harness()
        let background = h.engine.request(
            app: Harness.pizzaApp, attributes: pizzaAttributes(),
            content: content(["driverName": "Tim"]), origin: .app(isForeground: false))
        #expect(background == .failure(.visibility))
        let intent = h.engine.request(
            app: Harness.pizzaApp, attributes: pizzaAttributes(),
            content: content(["driverName": "Tim"]), origin: .liveActivityIntent)
        #expect((try? intent.get()) != nil)
    }
}
