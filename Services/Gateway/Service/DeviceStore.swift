#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import EngineHosting
import GRDB
package import GlimpseMessages

/// The gateway's own state in one SQLite file (`<data-dir>/gateway.sqlite`, WAL): each
/// installed app (its manifest and the tokens each service issued), each placement's
/// place on the screen, and the device settings — one protobuf row each. The services
/// keep everything else. A write returns once it is committed.
package final class DeviceStore: Sendable {
    private let queue: DatabaseFile

    package enum Kind: String, Sendable {
        /// `pending`: a placement being added, until every service has it or none does.
        case app, placement, settings, pending
    }

    /// Opens `<directory>/gateway.sqlite`, 0600 in a folder made 0700: it holds every
    /// app's tokens.
    package init(directory: URL) throws {
        try PrivateStore.makeDirectory(directory.path)
        let path = directory.appendingPathComponent("gateway.sqlite").path
        try PrivateStore.prepareDatabase(path)
        var configuration = Configuration()
        configuration.journalMode = .wal
        // One of the process's `OpenDatabases`: closed while idle when it holds too many.
        queue = try DatabaseFile(path: path, configuration: configuration)
        try prepare()
    }

    private init(inMemory: Void) throws {
        queue = try DatabaseFile(inMemory: Configuration())
        try prepare()
    }

    /// A store that lives as long as this object (tests).
    package static func inMemory() throws -> DeviceStore { try DeviceStore(inMemory: ()) }

    private func prepare() throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS device (
                        kind TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
                        PRIMARY KEY (kind, key)) WITHOUT ROWID
                    """)
        }
    }

    package func put(_ kind: Kind, _ key: String, _ message: some GlimpseMessage) throws {
        let bytes = try message.serializedBytes()
        try queue.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO device (kind, key, value) VALUES (?, ?, ?)",
                arguments: [kind.rawValue, key, Data(bytes)])
        }
    }

    package func delete(_ kind: Kind, _ key: String) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM device WHERE kind = ? AND key = ?", arguments: [kind.rawValue, key])
        }
    }

    /// Removes every row of `kinds` in one transaction.
    package func deleteAll(_ kinds: [Kind]) throws {
        try queue.write { db in
            for kind in kinds { try db.execute(sql: "DELETE FROM device WHERE kind = ?", arguments: [kind.rawValue]) }
        }
    }

    /// Every row of `kind`, decoded.
    package func all<M: GlimpseMessage>(_ kind: Kind, as type: M.Type) throws -> [M] {
        let blobs = try queue.read { db in
            try Data.fetchAll(
                db, sql: "SELECT value FROM device WHERE kind = ? ORDER BY key", arguments: [kind.rawValue])
        }
        return try blobs.map { try M(serializedBytes: [UInt8]($0)) }
    }
}
