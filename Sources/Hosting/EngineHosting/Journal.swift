#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GRDB

/// The inputs that changed one engine, in order, in one SQLite file per service
/// (`<data-dir>/<name>.sqlite`, WAL), in another store (`JournalBackend`: PostgreSQL, tables
/// per service, one replica at a time by a lease), or in memory for tests.
///
/// Invariants:
/// - Sequences are strictly increasing and never reused (AUTOINCREMENT), instants never
///   decrease (the host's clock never goes back).
/// - An append and the engine change it records commit together or not at all:
///   `append(_:instant:payload:applying:)` rolls the row back when the change throws.
/// - An append has returned only once its transaction committed (see `JournalSettings`).
package final class Journal: Sendable {
    enum Backend: Sendable {
        case sqlite(DatabaseFile)
        case other(any JournalBackend)
    }

    let backend: Backend
    package let settings: JournalSettings
    /// The file, the backend's location (a database, without its password), or nil in memory.
    package let path: String?

    /// Opens (creating if needed) `<directory>/<name>.sqlite`; a folder it makes is 0700.
    package convenience init(directory: URL, name: String, settings: JournalSettings = .defaults) throws {
        try PrivateStore.makeDirectory(directory.path)
        try self.init(path: directory.appendingPathComponent("\(name).sqlite").path, settings: settings)
    }

    /// Opens (creating if needed) the journal at `path`, 0600: it holds the apps' tokens.
    /// The file is one of `databases`: closed while idle when the process holds too many
    /// (`OpenDatabases`), reopened on its next use.
    package init(path: String, settings: JournalSettings = .defaults, databases: OpenDatabases = .shared) throws {
        try PrivateStore.prepareDatabase(path)
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.label = "journal"
        // After GRDB's WAL set-up, which sets NORMAL, on every (re)opened connection.
        let synchronous = settings.durability == .powerLoss ? "FULL" : "NORMAL"
        backend = .sqlite(
            try DatabaseFile(path: path, configuration: configuration, pool: databases) { queue in
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
                    try db.execute(sql: "PRAGMA journal_size_limit = \(Self.walSizeLimit)")
                }
            })
        self.settings = settings
        self.path = path
        try prepare()
    }

    /// A journal kept by `backend` (PostgreSQL: the PostgresStore target).
    package init(backend: any JournalBackend, settings: JournalSettings = .defaults) {
        self.backend = .other(backend)
        self.settings = settings
        path = backend.location
    }

    /// A journal that lives as long as this object (tests).
    package static func inMemory(settings: JournalSettings = .defaults) throws -> Journal {
        try Journal(inMemory: settings)
    }

    private init(inMemory settings: JournalSettings) throws {
        backend = .sqlite(try DatabaseFile(inMemory: Configuration()))
        self.settings = settings
        path = nil
        try prepare()
    }

    /// The SQLite database (nil in PostgreSQL).
    var sqlite: DatabaseFile? {
        if case .sqlite(let queue) = backend { queue } else { nil }
    }

    private func prepare() throws {
        guard let file = sqlite else { return }
        if path != nil { try prepareSpace() }
        let migrator = Self.migrator
        // A newer build may keep state this one cannot read (a journal it compacted differently).
        if try file.read({ db in try migrator.hasBeenSuperseded(db) }) {
            throw SupersededJournal(path: path ?? ":memory:")
        }
        try file.use { try migrator.migrate($0) }
    }

    package struct SupersededJournal: Error, CustomStringConvertible {
        package var path: String
        package var description: String { "\(path): written by a newer version of Glimpse; this one cannot read it" }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: journal") { db in
            try db.create(table: "journal") { table in
                table.autoIncrementedPrimaryKey("sequence")
                // Seconds since 2001 as a double: a Date's exact value.
                table.column("instant", .double).notNull()
                table.column("kind", .text).notNull()
                table.column("payload", .blob).notNull()
            }
        }
        registerSnapshots(&migrator)
        registerArchive(&migrator)
        return migrator
    }

    /// The SQLite `synchronous` level in force (1 NORMAL, 2 FULL).
    package func synchronousLevel() throws -> Int {
        guard let queue = sqlite else { return -1 }
        return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// The journal mode in force ("wal" for a file, "memory" in memory).
    package func journalMode() throws -> String {
        guard let queue = sqlite else { return "" }
        return try queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    static let insertEntry = "INSERT INTO journal (instant, kind, payload) VALUES (?, ?, ?)"

    /// Writes one entry and runs `change` in the same transaction: if `change` throws, the
    /// entry is rolled back and the error is rethrown. Returns the entry's sequence.
    func append<T>(
        _ kind: JournalEntry.Kind, instant: Date, payload: [UInt8],
        applying change: () throws -> T
    ) throws -> (sequence: Int64, result: T) {
        let queue: DatabaseFile
        switch backend {
        case .other(let store): return try store.append(kind, instant: instant, payload: payload, applying: change)
        case .sqlite(let file): queue = file
        }
        return try queue.write { db in
            // Compiled once per connection: a timer's firings come one at a time.
            try db.cachedStatement(sql: Self.insertEntry).execute(
                arguments: [instant.timeIntervalSinceReferenceDate, kind.rawValue, Data(payload)])
            let sequence = db.lastInsertedRowID
            return (sequence, try change())
        }
    }

    /// Writes one command entry per payload, all at `instant`, in one transaction: each
    /// change runs first, and only a change that does not throw gets its entry (its error is
    /// that entry's result). Returns the last sequence written (or `previous` when every change
    /// threw) and each change's result, in order. One prepared INSERT serves the batch: no
    /// savepoint, no statement compiled per entry (a push at tens of thousands a second pays
    /// for each).
    func appendBatch<T>(
        instant: Date, payloads: [[UInt8]], previous: Int64,
        applying change: (Int) throws -> T
    ) throws -> (sequence: Int64, results: [Result<T, any Error>]) {
        let queue: DatabaseFile
        switch backend {
        case .other(let store):
            return try store.appendBatch(instant: instant, payloads: payloads, previous: previous, applying: change)
        case .sqlite(let file): queue = file
        }
        return try queue.write { db in
            let insert = try db.cachedStatement(sql: Self.insertEntry)
            let time = instant.timeIntervalSinceReferenceDate
            var last = previous
            var results: [Result<T, any Error>] = []
            results.reserveCapacity(payloads.count)
            for (index, payload) in payloads.enumerated() {
                let value: T
                do { value = try change(index) } catch {
                    results.append(.failure(error))
                    continue
                }
                // A failed INSERT fails the whole batch (its transaction is rolled back and
                // the host stops), as a failed commit does.
                try insert.execute(arguments: [time, JournalEntry.Kind.command.rawValue, Data(payload)])
                last = db.lastInsertedRowID
                results.append(.success(value))
            }
            return (last, results)
        }
    }

    /// Visits every entry after `sequence`, in order, without loading the journal into memory.
    package func forEach(after sequence: Int64 = 0, _ body: (JournalEntry) throws -> Void) throws {
        let queue: DatabaseFile
        switch backend {
        case .other(let store): return try store.forEach(after: sequence, body)
        case .sqlite(let file): queue = file
        }
        try queue.read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT sequence, instant, kind, payload FROM journal WHERE sequence > ? ORDER BY sequence",
                arguments: [sequence])
            while let row = try rows.next() {
                try body(try Self.entry(row))
            }
        }
    }

    /// Every entry, in order (tests and tools; replay uses `forEach`).
    package func entries() throws -> [JournalEntry] {
        var all: [JournalEntry] = []
        try forEach { all.append($0) }
        return all
    }

    package func count() throws -> Int {
        let queue: DatabaseFile
        switch backend {
        case .other(let store): return try store.count()
        case .sqlite(let file): queue = file
        }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM journal") ?? 0 }
    }

    /// Checkpoints the WAL into the main file and closes the database.
    package func close() throws {
        let queue: DatabaseFile
        switch backend {
        case .other(let store): return try store.close()
        case .sqlite(let file): queue = file
        }
        if path != nil {
            _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        try queue.close()
    }

    package struct CorruptEntry: Error, Equatable {
        package var sequence: Int64
        package var reason: String

        package init(sequence: Int64, reason: String) {
            self.sequence = sequence
            self.reason = reason
        }
    }

    private static func entry(_ row: Row) throws -> JournalEntry {
        let sequence: Int64 = row["sequence"]
        let kindName: String = row["kind"]
        guard let kind = JournalEntry.Kind(rawValue: kindName) else {
            throw CorruptEntry(sequence: sequence, reason: "unknown kind \(kindName)")
        }
        let seconds: Double = row["instant"]
        let payload: Data = row["payload"]
        return JournalEntry(
            sequence: sequence, instant: Date(timeIntervalSinceReferenceDate: seconds),
            kind: kind, payload: [UInt8](payload))
    }
}
