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

@Suite("Push delivery to update tokens (S13)")
struct PushDeliveryTests {
    @Test("an update push to the activity's token is applied with its content, stale date and relevance")
    func updateApplied() throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        let outcome = h.push(updateBody(at: h.now, staleDate: h.now + 300, relevance: 50), to: token)
        #expect(outcome == .applied(id, .active))
        let snapshot = try #require(h.engine.activity(id))
        #expect(snapshot.content.state.bytes == bytes(#"{"driverName":"John"}"#))
        #expect(snapshot.content.staleDate == h.now + 300)
        #expect(snapshot.content.relevanceScore == 50)
    }

    @Test("a push stamped more than 8 h in the future is dropped, update and end alike; at the limit it applies")
    func futureTimestamps() throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        let far = h.now + 8 * 3600 + 1
        let limit = h.now + 8 * 3600
        #expect(
            h.push(updateBody(at: far), to: token)
                == .droppedAsStale(id, .timestampTooFarInFuture(timestamp: far, limit: limit)))
        // F8 saw a broadcast `end` accepted; Glimpse applies the limit to every event (a
        // bad clock must not stamp an activity's last word), and reports the drop.
        #expect(
            h.push(endBody(at: far), to: token)
                == .droppedAsStale(id, .timestampTooFarInFuture(timestamp: far, limit: limit)))
        #expect(h.push(updateBody(at: limit), to: token) == .applied(id, .active))
        #expect(h.push(endBody(at: limit), to: token) == .applied(id, .ended))
    }

    @Test("a push older than the last applied one is dropped and reported")
    func olderPushDropped() throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        _ = h.push(updateBody(at: h.now + 10), to: token)
        #expect(
            h.push(updateBody(at: h.now + 5), to: token)
                == .droppedAsStale(id, .olderThanLastApplied(timestamp: h.now + 5, last: h.now + 10)))
    }

    @Test("pushes arriving after the end are ignored")
    func afterEndIgnored() throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        #expect(h.push(endBody(at: h.now, state: ["driverName": "John"]), to: token) == .applied(id, .ended))
        #expect(h.push(updateBody(at: h.now + 1), to: token) == .ignoredBecauseEnded(id, .ended))
    }

    @Test(
        "an end push's dismissal-date: absent → up to 4 h, past → immediate, else within 4 h",
        arguments: [(nil, 4 * 3600.0), (-10, 0), (600, 600), (5 * 3600, 4 * 3600)] as [(TimeInterval?, TimeInterval)])
    func endDismissalDate(offset: TimeInterval?, expected: TimeInterval) throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        let outcome = h.push(endBody(at: h.now, dismissalDate: offset.map { h.now + $0 }), to: token)
        #expect(outcome == .applied(id, expected == 0 ? .dismissed : .ended))
        #expect(h.engine.activity(id)?.dismissalDate == (expected == 0 ? nil : h.now + expected))
    }

    @Test("tokens route by kind and app: start on an update token, wrong topic, unknown token are rejected")
    func routing() throws {
        var h = Harness()
        let (_, token) = try h.pushablePizza()
        #expect(h.push(startBody(at: h.now), to: token).rejection?.apnsReason == "EventNotAllowed")
        let filmHeaders = LiveActivityPushHeaders(app: Harness.filmApp)
        #expect(h.push(updateBody(at: h.now), to: token, headers: filmHeaders) == .rejected(.deviceTokenNotForTopic))
        #expect(h.push(updateBody(at: h.now), to: PushToken(hex: "abcd")!) == .rejected(.badDeviceToken))
        #expect(h.push(bytes("{"), to: token).rejection?.apnsReason == "MalformedPayload")
    }
}

extension PushOutcome {
    var rejection: PushRejection? {
        if case .rejected(let r) = self { return r }
        return nil
    }
}
