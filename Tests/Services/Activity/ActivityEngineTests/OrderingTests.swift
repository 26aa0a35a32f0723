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

@Suite("Ordering by timestamp (S12, S18)")
struct OrderingTests {
    @Test("an update older than the last applied one is dropped and reported as such")
    func olderUpdateDropped() throws {
        var h = Harness()
        let id = try h.requestPizza()
        let t0 = h.now
        let first = h.engine.update(id, content: content(["driverName": "John"]), timestamp: t0 + 10)
        #expect(first == .applied(.active))
        let late = h.engine.update(id, content: content(["driverName": "Tim"]), timestamp: t0 + 5)
        #expect(late == .droppedAsStale(.olderThanLastApplied(timestamp: t0 + 5, last: t0 + 10)))
        #expect(h.engine.activity(id)?.content.state == (try JSONObjectBytes(["driverName": "John"])))
    }

    @Test("an end older than the last applied update is dropped; the activity stays active")
    func olderEndDropped() throws {
        var h = Harness()
        let id = try h.requestPizza()
        let t0 = h.now
        _ = h.engine.update(id, content: content(["driverName": "John"]), timestamp: t0 + 10)
        let end = h.engine.end(id, timestamp: t0 + 1)
        #expect(end == .droppedAsStale(.olderThanLastApplied(timestamp: t0 + 1, last: t0 + 10)))
        #expect(h.engine.state(of: id) == .active)
    }

    @Test("an update without a timestamp is stamped now, so a later push stamped earlier is dropped")
    func untimedUpdateUsesNow() throws {
        var h = Harness()
        let id = try h.requestPizza()
        try h.advance(by: 100)
        _ = h.engine.update(id, content: content(["driverName": "John"]))
        let late = h.engine.update(id, content: content(["driverName": "Tim"]), timestamp: h.now - 1)
        #expect(late == .droppedAsStale(.olderThanLastApplied(timestamp: h.now - 1, last: h.now)))
    }

    @Test("a start stamped a day ahead is dropped by the future limit: it cannot freeze the activity until its 8 h end")
    func futureStampedStartDropped() throws {
        var h = Harness()
        let token = try h.engine.pushToStartToken(app: Harness.pizzaApp, attributesType: Harness.pizzaType).get()
        let outcome = h.push(startBody(at: h.now + 24 * 3600), to: token)
        #expect(
            outcome == .startDropped(.timestampTooFarInFuture(timestamp: h.now + 24 * 3600, limit: h.now + 8 * 3600)))
        #expect(h.engine.activities(of: Harness.pizzaApp).isEmpty)
        // Within the limit a start is taken, and an update stamped after it applies.
        guard case .started(let id) = h.push(startBody(at: h.now + 60), to: token) else {
            Issue.record("start within the limit was not taken")
            return
        }
        try h.advance(by: 0)
        let update = try #require(h.engine.activity(id)?.pushToken)
        #expect(h.push(updateBody(at: h.now + 61), to: update) == .applied(id, .active))
    }

    @Test("the future limit applies to every event: update, end, and the app's own calls")
    func futureLimitEveryEvent() throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        let far = h.now + 9 * 3600
        let limit = h.now + 8 * 3600
        #expect(
            h.push(endBody(at: far), to: token)
                == .droppedAsStale(id, .timestampTooFarInFuture(timestamp: far, limit: limit)))
        #expect(
            h.engine.end(id, timestamp: far) == .droppedAsStale(.timestampTooFarInFuture(timestamp: far, limit: limit)))
        #expect(h.engine.state(of: id) == .active)
    }

    @Test(
        "as on a phone, a local end() after a push stamped a minute ahead loses; unlike a phone, the drop is reported")
    func localEndAfterFuturePushIsReported() throws {
        var h = Harness()
        let (id, token) = try h.pushablePizza()
        #expect(h.push(updateBody(at: h.now + 60), to: token) == .applied(id, .active))
        _ = h.engine.drainEvents()
        let reason = DropReason.olderThanLastApplied(timestamp: h.now, last: h.now + 60)
        #expect(h.engine.end(id) == .droppedAsStale(reason))
        #expect(h.engine.drainEvents() == [.changeDropped(id, reason)])
        #expect(h.engine.state(of: id) == .active)
    }
}
