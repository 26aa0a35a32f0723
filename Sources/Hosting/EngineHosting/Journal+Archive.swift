#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// The archive: records of an engine's log that snapshots handed over (`SnapshotArchive`),
/// by sequence, with the key readers filter on. It holds at most the `keep` newest after each
/// snapshot; the engine holds the records since.
extension Journal {
    static func registerArchive(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3: archive") { db in
            try db.create(table: "archive") { table in
                table.primaryKey("sequence", .integer)
                table.column("key", .text).notNull()
                table.column("record", .blob).notNull()
            }
            try db.create(index: "archive_by_key", on: "archive", columns: ["key", "sequence"])
        }
    }

    /// Inserts `records` (one already there stays) and deletes all but the newest `keep`.
    static func archive(_ records: [ArchivedRecord], keep: Int, in db: Database) throws {
        guard !records.isEmpty else { return }
        let insert = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO archive (sequence, key, record) VALUES (?, ?, ?)")
        for record in records {
            try insert.execute(arguments: [record.sequence, record.key, Data(record.bytes)])
        }
        try db.execute(
            sql: "DELETE FROM archive WHERE sequence <= (SELECT MAX(sequence) FROM archive) - ?", arguments: [keep])
    }

    /// Archived records after `sequence`, oldest first, at most `limit`, with `key` (or all).
    package func archived(after sequence: Int64, key: String? = nil, limit: Int) throws -> [ArchivedRecord] {
        let queue: DatabaseFile
        switch backend {
        case .other(let store): return try store.archived(after: sequence, key: key, limit: limit)
        case .sqlite(let file): queue = file
        }
        return try queue.read { db in
            let rows: [Row]
            if let key {
                rows = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT sequence, key, record FROM archive WHERE key = ? AND sequence > ? ORDER BY sequence LIMIT ?",
                    arguments: [key, sequence, limit])
            } else {
                rows = try Row.fetchAll(
                    db, sql: "SELECT sequence, key, record FROM archive WHERE sequence > ? ORDER BY sequence LIMIT ?",
                    arguments: [sequence, limit])
            }
            return rows.map { row in
                let bytes: Data = row["record"]
                return ArchivedRecord(sequence: row["sequence"], key: row["key"], bytes: [UInt8](bytes))
            }
        }
    }
}
