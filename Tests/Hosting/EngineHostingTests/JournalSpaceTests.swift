import EngineHosting
import EngineHostToys
import Foundation
import GRDB
import Testing

/// The store gives back what a snapshot drops: without it the SQLite file keeps the pages of
/// every entry ever deleted (on its free list) and never shrinks below its largest size, so a
/// store that ran for weeks before snapshots stays that size (Benchmarks/snapshots.sh found it).
@Suite struct JournalSpaceTests {
    /// (pages in the file, pages on its free list), read beside the journal's own connection.
    static func pages(_ path: String) throws -> (total: Int, free: Int) {
        let reader = try DatabaseQueue(path: path)
        defer { try? reader.close() }
        return try reader.read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
                try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            )
        }
    }

    @Test func aSnapshotGivesTheEntriesItDropsBackToTheFileSystem() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("c.sqlite").path
        let host = try openCounterHost(
            try Journal(path: path), snapshots: SnapshotPolicy(every: 1_000_000, atClose: false))
        for _ in 0..<3_000 { try await host.submit(.add(1)) }
        let full = try Self.pages(path)
        try await host.snapshotNow()

        let after = try Self.pages(path)
        #expect(after.free == 0)
        #expect(after.total * 2 < full.total, "\(full.total) pages before the snapshot, \(after.total) after")
        try await host.submit(.add(1))
        try await host.close()
        let again = try openCounterHost(try Journal(path: path), snapshots: .defaults)
        #expect(await again.read { $0.count } == 3_001)
        try await again.close()
    }

    @Test func aStoreWrittenBeforeSnapshotsGivesSpaceBackToo() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("c.sqlite").path
        let host = try openCounterHost(try Journal(path: path))
        for _ in 0..<3_000 { try await host.submit(.add(1)) }
        try await host.close()
        // As a build from before snapshots left it: no auto-vacuum.
        let old = try DatabaseQueue(path: path)
        try await old.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA auto_vacuum = NONE")
            try db.execute(sql: "VACUUM")
        }
        #expect(try await old.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 0)
        try old.close()
        let full = try Self.pages(path)

        let snapped = try openCounterHost(
            try Journal(path: path), snapshots: SnapshotPolicy(every: 1_000_000, atClose: false))
        #expect(snapped.opening.replayed == 3_000)
        try await snapped.snapshotNow()
        let after = try Self.pages(path)
        #expect(after.free == 0)
        #expect(after.total * 2 < full.total, "\(full.total) pages before the snapshot, \(after.total) after")
        try await snapped.close()
    }
}
