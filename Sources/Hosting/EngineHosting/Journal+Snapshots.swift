#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GRDB

/// An engine's state as of a journal position: what a start restores before it replays
/// the entries after `sequence`.
package struct JournalSnapshot: Sendable, Equatable {
    /// The last entry the state includes; entries up to it are gone from the journal.
    package var sequence: Int64
    /// That entry's instant: a restored clock resumes no earlier.
    package var instant: Date
    /// The engine's `snapshotFormat` when it was written.
    package var format: Int
    package var state: [UInt8]

    package init(sequence: Int64, instant: Date, format: Int, state: [UInt8]) {
        self.sequence = sequence
        self.instant = instant
        self.format = format
        self.state = state
    }
}

/// Invariants (with those of `Journal`):
/// - The `snapshots` table holds at most one row, the latest snapshot, and the journal holds
///   no entry at or before its sequence: the row and the deletion commit together, so after
///   any crash the file holds either the old snapshot and every entry after it, or the new
///   one and every entry after that.
/// - Sequences keep counting across compaction (AUTOINCREMENT never reuses a number).
extension Journal {
    static func registerSnapshots(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2: snapshots") { db in
            try db.create(table: "snapshots") { table in
                table.primaryKey("sequence", .integer)
                table.column("instant", .double).notNull()
                table.column("format", .integer).notNull()
                table.column("state", .blob).notNull()
            }
        }
    }

    /// The latest snapshot, if one was written.
    package func latestSnapshot() throws -> JournalSnapshot? {
        let queue: DatabaseFile
        switch backend {
        case .other(let store): return try store.latestSnapshot()
        case .sqlite(let file): queue = file
        }
        return try queue.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT sequence, instant, format, state FROM snapshots ORDER BY sequence DESC LIMIT 1")
            else { return nil }
            let seconds: Double = row["instant"]
            let state: Data = row["state"]
            return JournalSnapshot(
                sequence: row["sequence"], instant: Date(timeIntervalSinceReferenceDate: seconds),
                format: row["format"], state: [UInt8](state))
        }
    }

    /// Stores `snapshot` in place of the previous one and deletes the entries it covers, in
    /// one transaction with the `archiving` records its engine handed over (the archive then
    /// keeps its newest `keep`): if any part fails, nothing changes. A snapshot older than the
    /// stored one (encoded aside while a newer one was written) is not stored: the entries
    /// between the two are gone, so it could not be completed. Returns whether it was stored.
    @discardableResult
    package func writeSnapshot(
        _ snapshot: JournalSnapshot, archiving records: [ArchivedRecord] = [], keep: Int = 0
    ) throws -> Bool {
        let queue: DatabaseFile
        switch backend {
        case .other(let store): return try store.writeSnapshot(snapshot, archiving: records, keep: keep)
        case .sqlite(let file): queue = file
        }
        return try queue.write { db in
            if let stored = try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM snapshots"),
                stored >= snapshot.sequence
            {
                return false
            }
            try Self.archive(records, keep: keep, in: db)
            try db.execute(sql: "DELETE FROM snapshots")
            try db.execute(
                sql: "INSERT INTO snapshots (sequence, instant, format, state) VALUES (?, ?, ?, ?)",
                arguments: [
                    snapshot.sequence, snapshot.instant.timeIntervalSinceReferenceDate, snapshot.format,
                    Data(snapshot.state),
                ])
            try db.execute(sql: "DELETE FROM journal WHERE sequence <= ?", arguments: [snapshot.sequence])
            return true
        }
    }

    /// The most a checkpointed WAL file keeps on disk: a snapshot's transaction makes it as
    /// large as the state, and without a limit it would stay that large.
    static var walSizeLimit: Int { 4 << 20 }

    /// A file journal gives the pages of the entries a snapshot drops back to the file
    /// system (incremental auto-vacuum), so the file shrinks to about the snapshot and the
    /// entries after it; otherwise SQLite keeps them on its free list and the file never
    /// shrinks below its largest size. A store made without it (before snapshots) is
    /// rewritten once, by a VACUUM at its first open.
    func prepareSpace() throws {
        guard let queue = sqlite else { return }
        try queue.writeWithoutTransaction { db in
            // 2: INCREMENTAL. Setting it only takes effect on a new file, or through a VACUUM.
            if try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2 {
                try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                try db.execute(sql: "VACUUM")
            }
        }
    }

    /// Truncates the file by the pages on its free list (after a snapshot dropped entries).
    /// A separate transaction: a crash in it leaves the snapshot's, which holds everything.
    package func releaseFreePages() throws {
        guard path != nil, let queue = sqlite else { return }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA incremental_vacuum") }
    }

    /// Whether the journal still holds every entry up to `sequence` (nothing compacted):
    /// then a start can replay the journal alone, setting aside a snapshot it cannot read.
    package func isComplete(through sequence: Int64) throws -> Bool {
        guard sequence > 0 else { return true }
        let queue: DatabaseFile
        switch backend {
        case .other(let store): return try store.isComplete(through: sequence)
        case .sqlite(let file): queue = file
        }
        // Compaction deletes a prefix, so while entry 1 is here no entry has gone.
        return try queue.read { db in try Int64.fetchOne(db, sql: "SELECT MIN(sequence) FROM journal") == 1 }
    }
}
