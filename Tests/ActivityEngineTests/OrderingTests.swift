#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import ActivityEngine

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
}
