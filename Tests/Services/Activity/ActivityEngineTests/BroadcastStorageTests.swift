#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import ActivityEngine
import GlimpseJSON
import GlimpseVocabulary
import Testing

/// iOS 18 broadcast channels (spec §9): a channel with message storage policy 1 keeps its
/// latest message up to 8 h, and an activity that subscribes later gets it; policy 0 keeps
/// nothing. Broadcast bodies may be 5,120 bytes. Time is the virtual clock's.
@Suite("Broadcast: message storage and size")
struct BroadcastStorageTests {
    let channel = ChannelID("c3BvcnRz")

    func headers(stores: Bool) -> LiveActivityPushHeaders {
        LiveActivityPushHeaders(app: Harness.pizzaApp, channelID: channel, storesMessage: stores)
    }

    func driver(_ h: Harness, _ id: ActivityID) -> String? {
        (try? JSONParser.parse(h.engine.activity(id)?.content.state.bytes ?? []))?["driverName"]?.stringValue
    }

    /// Broadcasts an update naming `driver` on the channel.
    @discardableResult
    func broadcast(
        _ h: inout Harness, _ driver: String, at timestamp: Date, stores: Bool = true
    )
        -> Result<[ActivityID: PushOutcome], PushRejection>
    {
        h.engine.receiveBroadcast(
            headers: headers(stores: stores), body: updateBody(at: timestamp, state: ["driverName": .string(driver)]))
    }

    /// The driver a new activity subscribed to the channel shows (its own is Tim).
    func subscriber(_ h: inout Harness) throws -> String? {
        let id = try h.requestPizza(driver: "Tim", pushType: .channel(channel))
        return driver(h, id)
    }

    @Test("policy 1: a subscriber that joins within 8 h gets the latest message; after 8 h it does not")
    func laterSubscriberGetsTheStoredMessage() throws {
        var h = Harness()
        // Nobody follows the channel yet: Apple still accepts the message, and keeps it.
        #expect(broadcast(&h, "Ann", at: h.now) == .failure(.unknownChannel))
        try h.advance(by: 60)
        #expect(broadcast(&h, "John", at: h.now) == .failure(.unknownChannel))
        try h.advance(by: 8 * 3600)  // exactly 8 h after the latest message
        #expect(try subscriber(&h) == "John")
        try h.advance(by: 1)
        #expect(try subscriber(&h) == "Tim")
    }

    @Test("policy 0 keeps nothing: a later subscriber shows its own content")
    func noStorage() throws {
        var h = Harness()
        broadcast(&h, "John", at: h.now, stores: false)
        #expect(try subscriber(&h) == "Tim")
    }

    @Test("the stored message is the newest by timestamp, and a deleted channel keeps none")
    func newestAndForgotten() throws {
        var h = Harness()
        broadcast(&h, "New", at: h.now + 10)
        broadcast(&h, "Old", at: h.now)
        #expect(try subscriber(&h) == "New")
        h.engine.manager.forgetChannel(channel)
        #expect(try subscriber(&h) == "Tim")
    }

    @Test("a push-to-start subscriber gets the stored message only when it is newer than its start")
    func pushToStartSubscriber() throws {
        var h = Harness()
        broadcast(&h, "John", at: h.now)
        try h.advance(by: 30)
        let token = try h.engine.pushToStartToken(app: Harness.pizzaApp, attributesType: Harness.pizzaType).get()
        func start() -> ActivityID? {
            guard
                case .started(let id) = h.push(
                    startBody(at: h.now, extra: [("input-push-channel", .string(channel.base64))]), to: token)
            else { return nil }
            return id
        }
        let id = try #require(start())
        #expect(driver(h, id) == "Tim")  // the start is newer than the stored update: it stays
        broadcast(&h, "Ann", at: h.now + 60)
        let newer = try #require(start())
        #expect(driver(h, newer) == "Ann")  // the stored update is newer than this start
    }

    @Test("a broadcast body may be 5,120 bytes; 5,121 is too large")
    func broadcastSize() throws {
        var h = Harness()
        let id = try h.requestPizza(pushType: .channel(channel))
        func body(ofSize size: Int) -> [UInt8] {
            let bare = updateBody(at: h.now, state: ["driverName": "John"])
            // Pad with a key of the root object: only the body's size grows.
            let padding = size - bare.count - #","p":"""#.utf8.count
            return Array(bare.dropLast()) + Array(#","p":"\#(String(repeating: "x", count: padding))"}"#.utf8)
        }
        #expect(body(ofSize: 5120).count == 5120)
        #expect(
            h.engine.receiveBroadcast(headers: headers(stores: false), body: body(ofSize: 5120))
                == .success([id: .applied(id, .active)]))
        #expect(
            h.engine.receiveBroadcast(headers: headers(stores: false), body: body(ofSize: 5121))
                == .failure(.invalidPayload(.payloadTooLarge(size: 5121, limit: 5120))))
    }
}
