import EngineHosting
import Foundation
import PostgresStore
import Synchronization
import Testing

private let testServerURL = ProcessInfo.processInfo.environment["GLIMPSE_POSTGRES_URL"]

/// The PostgreSQL journal keeps `Journal`'s invariants, against a real server: the test
/// command runs `swift test` beside one (scripts/with_postgres.py sets GLIMPSE_POSTGRES_URL);
/// without it these are skipped. Each test has a service name, so tables and lease, of its own.
@Suite("PostgreSQL journal", .enabled(if: testServerURL != nil, "GLIMPSE_POSTGRES_URL names no server"))
struct PostgresJournalTests {
    static var url: String? { testServerURL }

    struct Refused: Error {}

    static func open(_ name: String = "t\(UInt32.random(in: 0...UInt32.max))") throws -> (PostgresJournal, String) {
        let address = try PostgresAddress(url: url ?? "")
        return (try PostgresJournal.open(address, name: name, report: { _ in }), name)
    }

    static let t0 = Date(timeIntervalSinceReferenceDate: 789_000_000.123_456_789)

    @Test("an entry is kept exactly (instant, kind, bytes with NUL), and a change that throws leaves none")
    func appendsAndReadsBack() throws {
        let (journal, _) = try Self.open()
        defer { try? journal.close() }
        let first = try journal.append(.command, instant: Self.t0, payload: [0, 1, 0, 255]) { 7 }
        #expect(throws: Refused.self) {
            _ = try journal.append(.command, instant: Self.t0, payload: [9]) { () throws -> Int in throw Refused() }
        }
        let second = try journal.append(.fireDue, instant: Self.t0.addingTimeInterval(1), payload: []) { "x" }
        #expect(first.result == 7 && second.result == "x")
        #expect(second.sequence > first.sequence)
        var read: [JournalEntry] = []
        try journal.forEach(after: 0) { read.append($0) }
        #expect(
            read == [
                JournalEntry(sequence: first.sequence, instant: Self.t0, kind: .command, payload: [0, 1, 0, 255]),
                JournalEntry(
                    sequence: second.sequence, instant: Self.t0.addingTimeInterval(1), kind: .fireDue, payload: []),
            ])
        #expect(try journal.count() == 2)
    }

    @Test("a batch journals the changes that applied, in order, and reads back across pages")
    func batchesAndPages() throws {
        let (journal, _) = try Self.open()
        defer { try? journal.close() }
        let batch = try journal.appendBatch(instant: Self.t0, payloads: [[1], [2], [3]], previous: 0) { index in
            if index == 1 { throw Refused() }
            return index
        }
        #expect(batch.results.map { (try? $0.get()) ?? -1 } == [0, -1, 2])
        let many = try journal.appendBatch(
            instant: Self.t0, payloads: (0..<2_500).map { [UInt8]($0.description.utf8) }, previous: batch.sequence
        ) { $0 }
        var payloads: [[UInt8]] = []
        var sequences: [Int64] = []
        try journal.forEach(after: 0) {
            payloads.append($0.payload)
            sequences.append($0.sequence)
        }
        #expect(payloads == [[1], [3]] + (0..<2_500).map { [UInt8]($0.description.utf8) })
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
        #expect(many.sequence == sequences.last)
    }

    @Test("a snapshot replaces the last and drops the entries it covers; an older one is not stored")
    func snapshotsCompact() throws {
        let (journal, _) = try Self.open()
        defer { try? journal.close() }
        var last: Int64 = 0
        for i in 0..<5 { last = try journal.append(.command, instant: Self.t0, payload: [UInt8(i)]) { () }.sequence }
        #expect(try journal.isComplete(through: last))
        #expect(try journal.latestSnapshot() == nil)
        let snapshot = JournalSnapshot(sequence: last - 2, instant: Self.t0, format: 3, state: [0, 42, 0])
        #expect(try journal.writeSnapshot(snapshot, archiving: [], keep: 0))
        #expect(try journal.latestSnapshot() == snapshot)
        #expect(try journal.count() == 2)
        #expect(!(try journal.isComplete(through: last)))
        let older = JournalSnapshot(sequence: last - 3, instant: Self.t0, format: 3, state: [1])
        #expect(!(try journal.writeSnapshot(older, archiving: [], keep: 0)))
        #expect(try journal.latestSnapshot() == snapshot)
    }

    @Test("the archive keeps the newest `keep` records, an archived one is not doubled, and reads by key")
    func archives() throws {
        let (journal, _) = try Self.open()
        defer { try? journal.close() }
        let records = (1...5).map {
            ArchivedRecord(sequence: Int64($0), key: $0 % 2 == 0 ? "even" : "odd", bytes: [UInt8($0)])
        }
        #expect(
            try journal.writeSnapshot(
                JournalSnapshot(sequence: 1, instant: Self.t0, format: 1, state: []), archiving: records, keep: 3))
        #expect(try journal.archived(after: 0, key: nil, limit: 10).map(\.sequence) == [3, 4, 5])
        #expect(try journal.archived(after: 0, key: "odd", limit: 10).map(\.sequence) == [3, 5])
        #expect(try journal.archived(after: 3, key: nil, limit: 1).map(\.bytes) == [[4]])
        let again = [records[4], ArchivedRecord(sequence: 6, key: "even", bytes: [6])]
        #expect(
            try journal.writeSnapshot(
                JournalSnapshot(sequence: 2, instant: Self.t0, format: 1, state: []), archiving: again, keep: 3))
        #expect(try journal.archived(after: 0, key: nil, limit: 10).map(\.sequence) == [4, 5, 6])
    }

    @Test("a second replica waits as a standby while the first holds the lease, and takes it when that one closes")
    func oneReplicaAtATime() async throws {
        let (active, name) = try Self.open()
        let said = Mutex<[String]>([])
        let opened = Atomic<Bool>(false)
        let address = try PostgresAddress(url: Self.url ?? "")
        let standby = Task.detached {
            defer { opened.store(true, ordering: .releasing) }
            return try PostgresJournal.open(address, name: name, report: { line in said.withLock { $0.append(line) } })
        }
        // Until it says it waits; one that opened while the first holds the lease is the failure.
        while !said.withLock({ $0.contains { $0.hasPrefix("standby:") } }) {
            guard !opened.load(ordering: .acquiring) else {
                Issue.record("a second replica opened while the first held the lease: \(said.withLock { $0 })")
                try active.close()
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = try active.append(.command, instant: Self.t0, payload: [1]) { () }
        try active.close()
        let taken = try await standby.value
        defer { try? taken.close() }
        #expect(said.withLock { $0.last?.contains("lease taken") == true })
        #expect(try taken.count() == 1)
    }
}
