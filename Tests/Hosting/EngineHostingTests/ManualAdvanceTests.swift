import EngineHosting
import EngineHostToys
import Foundation
import GlimpseVocabulary
import Testing

@Suite struct ManualAdvanceTests {
    /// One scripted run: two chains of timers interleaving, one of which the fired work extends.
    func scriptedRun() async throws -> (effects: [Counter.Effect], entries: [JournalEntry]) {
        let journal = try Journal.inMemory()
        let log = EffectLog()
        let host = try openCounterHost(journal, log: log)
        try await host.submit(.schedule(label: "a", after: 10, amount: 1, every: 20, times: 4))  // 10 30 50 70
        try await host.submit(.schedule(label: "b", after: 25, amount: 100, every: 25, times: 3))  // 25 50 75
        try await host.advance(to: start.addingTimeInterval(60))
        #expect(await host.nextDue() == start.addingTimeInterval(70))
        #expect(host.clock.now == start.addingTimeInterval(60))
        try await host.advance(to: start.addingTimeInterval(80))
        #expect(await host.nextDue() == nil)
        return (log.all, try journal.entries())
    }

    @Test func firesInDeadlineOrderIncludingWorkTheFiredWorkSchedules() async throws {
        let (effects, entries) = try await scriptedRun()
        let at = { (seconds: Double) in start.addingTimeInterval(seconds) }
        #expect(
            effects == [
                .fired("a", count: 1, at: at(10)),
                .fired("b", count: 101, at: at(25)),
                .fired("a", count: 102, at: at(30)),
                // Both due at 50: b's link was scheduled (at 25) before a's (at 30).
                .fired("b", count: 202, at: at(50)),
                .fired("a", count: 203, at: at(50)),
                .fired("a", count: 204, at: at(70)),
                .fired("b", count: 304, at: at(75)),
            ])
        // Each firing is journaled at its deadline.
        #expect(entries.filter { $0.kind == .fireDue }.map(\.instant) == [10, 25, 30, 50, 70, 75].map(at))
    }

    @Test func aSecondIdenticalRunGivesAnIdenticalEffectLog() async throws {
        let first = try await scriptedRun()
        let second = try await scriptedRun()
        #expect(first.effects == second.effects)
        #expect(first.entries == second.entries)
    }

    @Test func advanceRefusesToGoBackAndSystemModeRefusesToAdvance() async throws {
        let manual = try openCounterHost(try Journal.inMemory())
        try await manual.advance(to: start.addingTimeInterval(5))
        await #expect(
            throws: EngineHostError.wouldGoBackwards(
                now: start.addingTimeInterval(5), requested: start)
        ) {
            try await manual.advance(to: start)
        }
        let system = try openCounterHost(try Journal.inMemory(), mode: .system)
        await #expect(throws: EngineHostError.notManual) { try await system.advance(to: .distantFuture) }
    }
}
