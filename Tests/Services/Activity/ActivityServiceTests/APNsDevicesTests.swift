import ActivityService
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
        #expect(await devices.endpoint(for: request(otherToken)).device == nil)
        devices.register("ci-1", other.server.endpoint)
        #expect(await devices.endpoint(for: request(otherToken)).device == "ci-1")
        #expect(await devices.endpoint(for: request(otherToken.uppercased())).device == "ci-1")
        #expect(await devices.endpoint(for: request(defaultToken)).device == nil)
        #expect(await devices.endpoint(for: request(String(repeating: "ab", count: 32))).device == nil)
        #expect(await devices.endpoint(for: request("not-hex")).device == nil)
        // Broadcasts and channel management are the default device's.
        let broadcast = APNsRequest(
            method: "POST", path: "/4/broadcasts/apps/\(app)", headers: [], body: [], connection: "c1")
        #expect(await devices.endpoint(for: broadcast).device == nil)
        // The push is answered by that device: 200 there, where the default would say BadDeviceToken.
        let routed = await devices.endpoint(for: request(otherToken)).endpoint
        let answer = await routed.respond(
            to: APNsRequest(
                method: "POST", path: "/3/device/\(otherToken)",
                headers: [("apns-topic", topic), ("apns-push-type", "liveactivity")].map { (name: $0.0, value: $0.1) },
                body: Array(update(5, at: start).utf8), connection: "c1"))
        #expect(answer.status == 200)
        // A closed device's tokens reach nothing any more.
        devices.remove("ci-1")
        #expect(await devices.endpoint(for: request(otherToken)).device == nil)
    }
}
