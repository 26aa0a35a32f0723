import EngineHosting
import EngineHostToys
import Foundation
import GlimpseVocabulary
import Testing

@Suite struct ReplayTests {
    @Test func reopeningTheFileReplaysToTheSameEngineAndDeadline() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try openCounterHost(try Journal(directory: directory, name: "counter"))
        try await first.submit(.add(2))
        try await first.submit(.schedule(label: "tick", after: 60, amount: 1, every: 30, times: 5))
        try await first.advance(to: start.addingTimeInterval(100))
        try await first.submit(.add(3))
        try await first.advance(to: start.addingTimeInterval(130))
        let before = await first.read { $0 }
        let deadlineBefore = await first.nextDue()
        let sequenceBefore = await first.lastSequence
        try await first.close()

        // Two firings (at 60 and 90) plus one at 120 happened; two remain.
        #expect(before.count == 2 + 3 + 3)
        #expect(deadlineBefore == start.addingTimeInterval(150))

        let second = try openCounterHost(try Journal(directory: directory, name: "counter"))
        #expect(await second.read { $0 } == before)
        #expect(await second.nextDue() == deadlineBefore)
        #expect(await second.lastSequence == sequenceBefore)
        // The clock resumes no earlier than the last journaled instant.
        #expect(second.clock.now >= start.addingTimeInterval(120))
        try await second.close()
    }

    @Test func aRejectedCommandLeavesNoEntryAndNoChange() async throws {
        let journal = try Journal.inMemory()
        let host = try openCounterHost(journal)
        try await host.submit(.add(1))
        await #expect(throws: Counter.Refused.self) { try await host.submit(.add(-1)) }
        try await host.submit(.add(1))

        #expect(await host.read { $0.count } == 2)
        let entries = try journal.entries()
        #expect(entries.map(\.sequence) == [1, 2])
        #expect(try entries.map { try CounterCommand.decode($0.payload) } == [.add(1), .add(1)])
        // The rejection did not poison the host: a fresh host over the same journal agrees.
        let replayed = try openCounterHost(journal)
        #expect(await replayed.read { $0 } == (await host.read { $0 }))
    }

    @Test func aBatchJournalsEachAcceptedCommandInOrderAndRefusesOnlyTheRejectedOnes() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = EffectLog()
        let host = try openCounterHost(try Journal(directory: directory, name: "counter"), log: log)
        try await host.submit(.add(1))
        let results = try await host.submit(batch: [.add(2), .add(-5), .add(3), .add(-1), .add(4)])

        #expect(results.map { (try? $0.get()) != nil } == [true, false, true, false, true])
        #expect(await host.read { $0.count } == 1 + 2 + 3 + 4)
        #expect(await host.lastSequence == 4)
        // The accepted commands' effects are performed together, in order, after the commit.
        #expect(log.all.suffix(3).map { if case .counted(let n, _) = $0 { n } else { -1 } } == [3, 6, 10])
        let entries = try host.journal.entries()
        #expect(entries.map(\.sequence) == [1, 2, 3, 4])
        #expect(try entries.map { try CounterCommand.decode($0.payload) } == [.add(1), .add(2), .add(3), .add(4)])
        #expect(try await host.submit(batch: []).isEmpty)
        let before = await host.read { $0 }
        try await host.close()

        // What the batch acknowledged is on disk: a reopened host replays to the same engine.
        let reopened = try openCounterHost(try Journal(directory: directory, name: "counter"))
        #expect(await reopened.read { $0 } == before)
        #expect(await reopened.lastSequence == 4)
        try await reopened.close()
    }

    @Test func aCommandTheEngineNoLongerAcceptsStopsReplay() async throws {
        let journal = try Journal.inMemory()
        let host = try openCounterHost(journal)
        try await host.submit(.add(1))
        // A host whose apply now refuses everything: replay must not skip the entry silently.
        let clock = HostClock(.manual(start: start))
        #expect(throws: EngineHostError.replayDiverged(sequence: 1)) {
            _ = try CounterHost(
                engine: Counter(clock: clock), clock: clock, journal: journal,
                apply: { _, _ in throw Counter.Refused() }, perform: { _, _ in })
        }
    }
}
