import EngineHosting
import EngineHostToys
import Foundation
import GlimpseVocabulary
import Synchronization
import Testing

@Suite struct OrderingTests {
    @Test func concurrentSubmitsAreSerializedAndJournaledInTheOrderApplied() async throws {
        let journal = try Journal.inMemory()
        let log = EffectLog()
        let host = try openCounterHost(journal, mode: .system, log: log)
        let amounts = Array(1...64)

        let answers = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for amount in amounts {
                group.addTask { (amount, try await host.submit(.add(amount))) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }

        // Each answer is the running total after its own add: the adds were one at a time,
        // and the journal holds them in exactly that order.
        let journaled = try journal.entries().map { entry -> Int in
            guard case .add(let amount) = try CounterCommand.decode(entry.payload) else { return -1 }
            return amount
        }
        #expect(journaled.sorted() == amounts)
        var total = 0
        for amount in journaled {
            total += amount
            #expect(answers[amount] == total)
        }
        #expect(try journal.entries().map(\.sequence) == (1...Int64(amounts.count)).map { $0 })
        let instants = try journal.entries().map(\.instant)
        #expect(instants == instants.sorted())
        // Effects were handed over batch by batch in journal order.
        #expect(
            log.all.map { effect -> Int in
                guard case .counted(let count, _) = effect else { return -1 }
                return count
            } == journaled.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1) })
    }

    @Test func concurrentSubmitsShareCommitsAndARejectedOneFailsOnlyItself() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try openCounterHost(try Journal(directory: directory, name: "counter"), mode: .system)
        // 1...40 and one refused (-1): the refused caller alone gets the error.
        let amounts = Array(1...40) + [-1]
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for amount in amounts {
                group.addTask { (amount, (try? await host.submit(.add(amount))) != nil) }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.filter { !$0.value }.map(\.key) == [-1])
        #expect(await host.read { $0.count } == (1...40).reduce(0, +))
        let before = await host.read { $0 }
        try await host.close()
        // Every acknowledged add is on disk, once, with no gap in the sequences.
        let journal = try Journal(directory: directory, name: "counter")
        #expect(try journal.entries().map(\.sequence) == (1...40).map { Int64($0) })
        let reopened = try openCounterHost(journal, mode: .system)
        #expect(await reopened.read { $0 } == before)
        try await reopened.close()
    }
}

/// `submit(grouped:)`: results once committed, before the effects are performed.
@Suite(.timeLimit(.minutes(1)))
struct GroupedSubmitTests {
    @Test func groupedCommandsAreAnsweredOnceJournaledWhileTheirEffectsWait() async throws {
        let journal = try Journal.inMemory()
        let clock = HostClock(.system)
        let performing = ArrivalGate(waitingFor: 1)
        let finished = ArrivalGate(waitingFor: 1)
        let performed = Mutex(0)
        let host = try CounterHost(
            engine: Counter(clock: clock), clock: clock, journal: journal, apply: CounterCommand.apply,
            perform: { _, effects in
                // The effects of the group wait until the test has its answers.
                if !effects.isEmpty { await performing.wait() }
                performed.withLock { $0 += effects.count }
                if !effects.isEmpty { finished.arrive() }
            })
        let results = await host.submit(grouped: [.add(1), .add(-1), .add(2)])
        // A refused command fails alone; the others are applied in order.
        #expect(results.count == 3)
        #expect((try? results[0].get()) == 1)
        #expect((try? results[1].get()) == nil)
        #expect((try? results[2].get()) == 3)
        #expect(try journal.entries().count == 2)
        #expect(performed.withLock { $0 } == 0)
        performing.arrive()
        await finished.wait()
        #expect(performed.withLock { $0 } == 2)
        try await host.close()
        let refused = await host.submit(grouped: [.add(1)])
        #expect(refused.count == 1)
        #expect((try? refused[0].get()) == nil)
    }
}
