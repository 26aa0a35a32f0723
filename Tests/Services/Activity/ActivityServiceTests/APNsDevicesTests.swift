import ActivityService
import EngineHosting
import ServiceKit
import GlimpseMessages
import GlimpseVocabulary
import Testing

/// One glimpse-activity, several devices: a push goes to the device that issued its token.
@Suite("APNs endpoint: which device a push is for")
struct APNsDevicesTests {
    func request(_ token: String) -> APNsRequest {
        APNsRequest(method: "POST", path: "/3/device/\(token)", headers: [], body: [], connection: "c1")
    }

    @Test("a token's push goes to the device that issued it; anything else to the default device")
    func routesByToken() async throws {
        let phone = try await Fixture.make()
        let other = try await Fixture.make()
        let devices = APNsDevices(default: phone.server.endpoint)
        let (_, defaultToken) = try await phone.requestActivity()
        let (_, otherToken) = try await other.requestActivity()
        // Before the device is registered its tokens are nobody's: the default answers.
        #expect(devices.endpoint(for: request(otherToken)).device == nil)
        await devices.register("ci-1", other.server.endpoint)
        #expect(devices.endpoint(for: request(otherToken)).device == "ci-1")
        #expect(devices.endpoint(for: request(otherToken.uppercased())).device == "ci-1")
        #expect(devices.endpoint(for: request(defaultToken)).device == nil)
        #expect(devices.endpoint(for: request(String(repeating: "ab", count: 32))).device == nil)
        #expect(devices.endpoint(for: request("not-hex")).device == nil)
        // Broadcasts and channel management are the default device's.
        let broadcast = APNsRequest(
            method: "POST", path: "/4/broadcasts/apps/\(app)", headers: [], body: [], connection: "c1")
        #expect(devices.endpoint(for: broadcast).device == nil)
        // The push is answered by that device: 200 there, where the default would say BadDeviceToken.
        let routed = devices.endpoint(for: request(otherToken)).endpoint
        let answer = await routed.respond(
            to: APNsRequest(
                method: "POST", path: "/3/device/\(otherToken)",
                headers: [("apns-topic", topic), ("apns-push-type", "liveactivity")].map { (name: $0.0, value: $0.1) },
                body: Array(update(5, at: start).utf8), connection: "c1"))
        #expect(answer.status == 200)
        // A closed device's tokens reach nothing any more.
        devices.remove("ci-1")
        #expect(devices.endpoint(for: request(otherToken)).device == nil)
    }

    @Test(
        "tokens a device issues after it is registered are found at once: update, push-to-start, widget; removing it removes only its own"
    )
    func indexedAsIssued() async throws {
        let phone = try await Fixture.make()
        let devices = APNsDevices(default: phone.server.endpoint)
        let ci1 = try await Fixture.make(tokenIssued: { devices.issued($0, by: "ci-1") })
        let ci2 = try await Fixture.make(tokenIssued: { devices.issued($0, by: "ci-2") })
        let (_, before) = try await ci1.requestActivity()
        await devices.register("ci-1", ci1.server.endpoint)
        await devices.register("ci-2", ci2.server.endpoint)
        // Issued before registration: found by register's own reading of the device.
        #expect(devices.endpoint(for: request(before)).device == "ci-1")
        let (_, after) = try await ci1.requestActivity()
        let (_, second) = try await ci2.requestActivity()
        #expect(devices.endpoint(for: request(after)).device == "ci-1")
        #expect(devices.endpoint(for: request(second)).device == "ci-2")
        // A widget push token comes from its own call, not an engine event.
        guard
            case .token(let widget) = try await ci2.server.host.submit(
                ActivityCommand(.widgetPushToken(GlimpseActivityV1.WidgetPushTokenRequest(bundleId: app))))
        else { Issue.record("no widget token"); return }
        #expect(devices.endpoint(for: request(widget)).device == "ci-2")
        devices.remove("ci-1")
        #expect(devices.endpoint(for: request(after)).device == nil)
        #expect(devices.endpoint(for: request(before)).device == nil)
        #expect(devices.endpoint(for: request(second)).device == "ci-2")
    }
}
