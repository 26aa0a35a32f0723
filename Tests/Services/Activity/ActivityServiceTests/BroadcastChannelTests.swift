import ActivityService
import EngineHosting
import ServiceKit
import Foundation
import GlimpseMessages
import Testing

/// iOS 18 broadcast through the endpoint (issue 28, point 9): bodies up to 5,120 bytes, and
/// a channel with message storage policy 1 keeping its latest message for 8 h for the
/// activities that subscribe later, on the service's manual clock.
@Suite("Broadcast channels, as Apple's")
struct BroadcastChannelTests {
    /// A channel of `policy`, an activity subscribed to it (or none), through the endpoint.
    func channel(_ f: Fixture, policy: Int) async throws -> String {
        let created = await f.push(
            "/1/apps/\(app)/channels", body: #"{"message-storage-policy":\#(policy),"push-type":"LiveActivity"}"#)
        return try #require(created.headers["apns-channel-id"])
    }

    func broadcast(_ f: Fixture, _ channel: String, _ body: String) async -> APNsResponse {
        await f.push(
            "/4/broadcasts/apps/\(app)", body: body,
            headers: [("apns-push-type", "LiveActivity"), ("apns-channel-id", channel)])
    }

    @Test("a broadcast body up to 5,120 bytes is accepted and applied; 5,121 is 413 PayloadTooLarge")
    func broadcastSize() async throws {
        let f = try await Fixture.make()
        let channel = try await channel(f, policy: 0)
        _ = try await f.subscribe(to: channel)
        func body(_ size: Int) -> String {
            let bare = update(4, at: start)
            return String(bare.dropLast()) + #","p":"\#(String(repeating: "x", count: size - bare.utf8.count - 7))"}"#
        }
        #expect(body(5120).utf8.count == 5120)
        let fits = await broadcast(f, channel, body(5120))
        #expect(fits.status == 200)
        #expect(try await f.pushes.last?.outcomes.first?.kind == .applied)
        let over = await broadcast(f, channel, body(5121))
        #expect(over.status == 413 && reason(over) == "PayloadTooLarge")
    }

    @Test("message storage policy 1: an activity that subscribes within 8 h gets the latest message, later ones do not")
    func storedMessage() async throws {
        let f = try await Fixture.make()
        let kept = try await channel(f, policy: 1)
        let none = try await channel(f, policy: 0)
        #expect(await broadcast(f, kept, update(3, at: start)).status == 200)
        #expect(try await f.pushes.last?.outcomes.first?.detail.contains("kept") == true)
        #expect(await broadcast(f, none, update(3, at: start)).status == 200)
        try await f.advance(seconds: 8 * 3600)
        #expect(try await f.subscribe(to: kept).content?.stateJson == #"{"eta":3}"#)
        #expect(try await f.subscribe(to: none).content?.stateJson == #"{"eta":10}"#)
        try await f.advance(seconds: 1)
        #expect(try await f.subscribe(to: kept).content?.stateJson == #"{"eta":10}"#)
    }
}
