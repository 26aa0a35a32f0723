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

@Suite("Deadline heap")
struct DeadlineQueueTests {
    @Test("pushes that keep moving the stale date later add no heap entries")
    func laterStaleDatesDoNotGrowHeap() throws {
        var h = Harness()
        let id = try h.requestPizza(staleDate: h.now + 300)
        let before = h.engine.deadlines.count
        for n in 1...1000 {
            _ = h.engine.update(id, content: content(["n": .number(n)], staleDate: h.now + 300 + Double(n)))
        }
        #expect(h.engine.deadlines.count == before)
        try h.advance(by: 300)
        #expect(h.engine.state(of: id) == .active)  // the early entry re-queued itself at the new date
        try h.advance(by: 1000)
        #expect(h.engine.state(of: id) == .stale)
    }

    @Test("nextDeadline is never later than the next thing due")
    func nextDeadlineNotLate() throws {
        var h = Harness()
        let id = try h.requestPizza(staleDate: h.now + 300)
        _ = h.engine.update(id, content: content(["a": 1], staleDate: h.now + 100))
        #expect(h.engine.nextDeadline() == h.now + 100)
    }

    @Test("superseded entries are compacted away when the heap outgrows its threshold")
    func compaction() throws {
        var h = Harness()
        let id = try h.requestPizza(staleDate: h.now + 100_000)
        for n in 0..<3000 {  // each moves the stale date earlier: one new entry each
            _ = h.engine.update(id, content: content(["n": .number(n)], staleDate: h.now + 100_000 - Double(n)))
        }
        #expect(h.engine.deadlines.count < 1100)
    }
}
