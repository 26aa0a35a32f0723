import EngineHosting
import EngineHostToys
import Foundation
import GRDB
import Testing

/// Snapshots in the host: a start from a snapshot plus the entries after it is the start
/// the whole journal would have given; compaction, failure and formats.
@Suite struct SnapshotTests {
    /// The same inputs: adds, timers that reschedule themselves, advances.
    static func feed(_ host: CounterHost, rounds: Int, from offset: TimeInterval = 0) async throws {
        for round in 0..<rounds {
            let at = offset + TimeInterval(round) * 40
            try await host.submit(.add(round % 5))
            if round % 7 == 0 {
                try await host.submit(.schedule(label: "t\(round)", after: 25, amount: 2, every: 15, times: 4))
            }
            try await host.advance(to: start.addingTimeInterval(at + 30))
        }
    }

    @Test func aStartFromASnapshotIsTheStartTheWholeJournalGives() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plainJournal = try Journal(directory: directory, name: "plain")
        let snappedJournal = try Journal(directory: directory, name: "snapped")
        let plain = try openCounterHost(plainJournal)
        let snapped = try openCounterHost(snappedJournal, snapshots: SnapshotPolicy(every: 10, atClose: false))
        try await Self.feed(plain, rounds: 60)
        try await Self.feed(snapped, rounds: 60)
        #expect(await snapped.snapshotsTaken > 0)
        #expect(await snapped.read { $0 } == plain.read { $0 })
        let sequence = await plain.lastSequence
        #expect(await snapped.lastSequence == sequence)
        try await plain.close()
        try await snapped.close()

        let plainLog = EffectLog()
        let snappedLog = EffectLog()
        let plainAgain = try openCounterHost(try Journal(directory: directory, name: "plain"), log: plainLog)
        let snappedAgain = try openCounterHost(
            try Journal(directory: directory, name: "snapped"), log: snappedLog, snapshots: SnapshotPolicy(every: 10))
        #expect(plainAgain.opening.restored == nil)
        #expect(try #require(snappedAgain.opening.restored) > 0)
        #expect(snappedAgain.opening.replayed < plainAgain.opening.replayed)
        #expect(await snappedAgain.read { $0 } == plainAgain.read { $0 })
        #expect(await snappedAgain.nextDue() == plainAgain.nextDue())
        #expect(await snappedAgain.lastSequence == sequence)
        #expect(snappedAgain.clock.now == plainAgain.clock.now)

        // From there on both act alike: the same effects, the same sequences.
        try await Self.feed(plainAgain, rounds: 20, from: 60 * 40)
        try await Self.feed(snappedAgain, rounds: 20, from: 60 * 40)
        #expect(snappedLog.all == plainLog.all)
        #expect(await snappedAgain.read { $0 } == plainAgain.read { $0 })
        #expect(await snappedAgain.lastSequence == plainAgain.lastSequence)
        try await plainAgain.close()
        try await snappedAgain.close()
    }

    @Test func snapshotsEncodedAsideGiveTheStartTheWholeJournalGives() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = try openCounterHost(try Journal(directory: directory, name: "plain"))
        let aside = try openCounterHost(
            try Journal(directory: directory, name: "aside"), snapshots: SnapshotPolicy(every: 10, atClose: false),
            aside: true)
        // Inputs keep coming while a snapshot is written: each one waits for the one before.
        for round in 0..<6 {
            try await Self.feed(plain, rounds: 10, from: TimeInterval(round) * 400)
            try await Self.feed(aside, rounds: 10, from: TimeInterval(round) * 400)
        }
        await aside.snapshotAsideSettled()
        #expect(await aside.snapshotsTaken > 0)
        let journal = aside.journal
        let saved = try #require(try journal.latestSnapshot())
        // The entries after the copy's stayed; those it covers are gone.
        #expect(try journal.entries().allSatisfy { $0.sequence > saved.sequence })
        #expect(try journal.entries().count == Int(await aside.lastSequence - saved.sequence))
        let sequence = await plain.lastSequence
        try await plain.close()
        try await aside.close()

        let plainAgain = try openCounterHost(try Journal(directory: directory, name: "plain"))
        let asideAgain = try openCounterHost(try Journal(directory: directory, name: "aside"), snapshots: .defaults)
        #expect(asideAgain.opening.restored == saved.sequence)
        #expect(await asideAgain.read { $0 } == plainAgain.read { $0 })
        #expect(await asideAgain.lastSequence == sequence)
        try await plainAgain.close()
        try await asideAgain.close()
    }

    @Test func anOlderSnapshotNeverReplacesANewerOne() async throws {
        let journal = try Journal.inMemory()
        let host = try openCounterHost(journal)
        for _ in 1...6 { try await host.submit(.add(1)) }
        #expect(try journal.writeSnapshot(JournalSnapshot(sequence: 4, instant: start, format: 1, state: [4])))
        // Encoded from an earlier copy, written last: the entries 3...4 it would need are gone.
        #expect(try journal.writeSnapshot(JournalSnapshot(sequence: 2, instant: start, format: 1, state: [2])) == false)
        #expect(try journal.latestSnapshot()?.sequence == 4)
        #expect(try journal.latestSnapshot()?.state == [4])
        #expect(try journal.entries().map(\.sequence) == [5, 6])
    }

    @Test func aSnapshotArchivesTheRecordsItCarriesAndTheArchiveKeepsTheNewest() throws {
        let journal = try Journal.inMemory()
        func records(_ sequences: ClosedRange<Int64>) -> [ArchivedRecord] {
            sequences.map { ArchivedRecord(sequence: $0, key: $0 % 2 == 0 ? "even" : "odd", bytes: [UInt8($0)]) }
        }
        func archived(after: Int64 = 0, key: String? = nil, limit: Int = 100) throws -> [Int64] {
            try journal.archived(after: after, key: key, limit: limit).map(\.sequence)
        }
        #expect(try archived() == [])
        #expect(
            try journal.writeSnapshot(
                JournalSnapshot(sequence: 4, instant: start, format: 1, state: [4]), archiving: records(1...6), keep: 5)
        )
        #expect(try archived() == [2, 3, 4, 5, 6])
        #expect(try archived(after: 2, key: "even") == [4, 6])
        #expect(try archived(after: 2, limit: 2) == [3, 4])
        #expect(try journal.archived(after: 4, limit: 1) == [ArchivedRecord(sequence: 5, key: "odd", bytes: [5])])
        // A snapshot that is not stored stores none of its records either.
        #expect(
            try journal.writeSnapshot(
                JournalSnapshot(sequence: 3, instant: start, format: 1, state: [3]), archiving: records(7...9), keep: 5)
                == false)
        #expect(try archived() == [2, 3, 4, 5, 6])
        // A record already archived stays as it was; the oldest go as new ones come.
        let again = [ArchivedRecord(sequence: 6, key: "other", bytes: [0])] + records(7...8)
        #expect(
            try journal.writeSnapshot(
                JournalSnapshot(sequence: 9, instant: start, format: 1, state: [9]), archiving: again, keep: 5))
        #expect(try archived() == [4, 5, 6, 7, 8])
        #expect(try archived(key: "even") == [4, 6, 8])
        #expect(try archived(key: "other") == [])
    }

    @Test func aSnapshotDropsTheEntriesItCoversAndSequencesKeepCounting() async throws {
        let journal = try Journal.inMemory()
        let host = try openCounterHost(journal, snapshots: SnapshotPolicy(every: 1_000))
        for _ in 0..<5 { try await host.submit(.add(1)) }
        try await host.snapshotNow()
        #expect(try journal.count() == 0)
        #expect(try journal.latestSnapshot()?.sequence == 5)
        try await host.submit(.add(1))
        #expect(try journal.entries().map(\.sequence) == [6])
        #expect(await host.lastSequence == 6)

        let again = try openCounterHost(journal, snapshots: .defaults)
        #expect(again.opening.restored == 5)
        #expect(again.opening.replayed == 1)
        #expect(again.opening.setAside == nil)
        #expect(await again.read { $0.count } == 6)
        try await again.submit(.add(1))
        #expect(await again.lastSequence == 7)
    }

    @Test func everyNInputsTakesASnapshotAndCloseTakesTheLast() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try openCounterHost(
            try Journal(directory: directory, name: "c"), snapshots: SnapshotPolicy(every: 4))
        for _ in 0..<4 { try await host.submit(.add(1)) }
        #expect(await host.snapshotsTaken == 1)
        try await host.submit(.add(1))
        try await host.close()

        let journal = try Journal(directory: directory, name: "c")
        #expect(try journal.count() == 0)
        #expect(try journal.latestSnapshot()?.sequence == 5)
        let again = try openCounterHost(journal, snapshots: .defaults)
        #expect(again.opening.replayed == 0)
        #expect(await again.read { $0.count } == 5)
    }

    @Test func aLargeStateIsSavedLessOftenThanEveryNInputs() async throws {
        // Every input adds to the counter's `seen`: the state outgrows what an input journals.
        let host = try openCounterHost(try Journal.inMemory(), snapshots: SnapshotPolicy(every: 1, atClose: false))
        for _ in 0..<400 { try await host.submit(.add(1)) }
        let taken = await host.snapshotsTaken
        #expect(taken > 1)
        #expect(taken < 100)
    }

    @Test func aSnapshotTransactionThatFailsLeavesTheJournalAsItWas() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("c.sqlite").path
        let host = try openCounterHost(try Journal(path: path), snapshots: SnapshotPolicy(every: 1_000))
        for _ in 0..<3 { try await host.submit(.add(1)) }
        try await host.snapshotNow()
        for _ in 0..<4 { try await host.submit(.add(2)) }

        // The deletion fails half way through the transaction, after the snapshot row went in.
        let other = try DatabaseQueue(path: path)
        try await other.write { db in
            try db.execute(sql: "CREATE TRIGGER crash BEFORE DELETE ON journal BEGIN SELECT RAISE(ABORT, 'crash'); END")
        }
        await #expect(throws: (any Error).self) { try await host.snapshotNow() }
        #expect(await host.snapshotFailure?.contains("crash") == true)
        try await host.submit(.add(3))  // the host serves on
        try await host.close()
        try await other.write { db in try db.execute(sql: "DROP TRIGGER crash") }
        try other.close()

        let journal = try Journal(path: path)
        #expect(try journal.latestSnapshot()?.sequence == 3)
        #expect(try journal.entries().map(\.sequence) == [4, 5, 6, 7, 8])
        let again = try openCounterHost(journal, snapshots: .defaults)
        #expect(await again.read { $0.count } == 3 + 8 + 3)
    }

    @Test func anUnreadableSnapshotIsSetAsideWhenTheJournalIsComplete() async throws {
        let journal = try Journal.inMemory()
        let host = try openCounterHost(journal)
        for _ in 0..<3 { try await host.submit(.add(1)) }
        // A snapshot from another build that compacted nothing.
        try journal.writeSnapshot(JournalSnapshot(sequence: 0, instant: start, format: 99, state: [1, 2, 3]))

        let again = try openCounterHost(journal, snapshots: .defaults)
        #expect(again.opening.restored == nil)
        #expect(again.opening.setAside?.contains("format 99") == true)
        #expect(await again.read { $0.count } == 3)
    }

    @Test func anUnreadableSnapshotOverACompactedJournalStopsTheStartNamingTheFile() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("c.sqlite").path
        let host = try openCounterHost(try Journal(path: path), snapshots: .defaults)
        for _ in 0..<3 { try await host.submit(.add(1)) }
        try await host.close()

        let otherFormat = Snapshotting<Counter>(
            format: 2, policy: .defaults, encode: { _ in [] }, restore: { _, _ in })
        for snapshotting in [otherFormat, nil] {
            let clock = HostClock(.manual(start: start))
            let error = try #require(throws: EngineHostError.self) {
                _ = try CounterHost(
                    engine: Counter(clock: clock), clock: clock, journal: try Journal(path: path),
                    snapshotting: snapshotting, apply: CounterCommand.apply, perform: { _, _ in })
            }
            guard case .snapshotUnreadable(let file, let sequence, _) = error else {
                Issue.record("expected snapshotUnreadable, got \(error)")
                continue
            }
            #expect(file == path)
            #expect(sequence == 3)
            #expect("\(error)".hasPrefix(path))
        }
    }

    @Test func bytesThatDoNotDecodeAreUnreadableToo() async throws {
        let journal = try Journal.inMemory()
        try journal.writeSnapshot(
            JournalSnapshot(sequence: 4, instant: start, format: Counter.snapshotFormat, state: [0xFF]))
        #expect(throws: EngineHostError.self) { try openCounterHost(journal, snapshots: .defaults) }
    }

    @Test func theClockResumesNoEarlierThanTheSnapshot() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try openCounterHost(try Journal(directory: directory, name: "c"), snapshots: .defaults)
        try await host.advance(to: start.addingTimeInterval(500))
        try await host.submit(.add(1))
        try await host.close()
        let again = try openCounterHost(try Journal(directory: directory, name: "c"), snapshots: .defaults)
        #expect(again.opening.replayed == 0)
        #expect(again.clock.now == start.addingTimeInterval(500))
    }
}
