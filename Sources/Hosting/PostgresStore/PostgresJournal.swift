#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import EngineHosting
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A service's journal, snapshot and archive in PostgreSQL: the tables `glimpse_<name>_journal`,
/// `_snapshots` and `_archive`, the same rows the SQLite file holds.
///
/// Invariants (with those of `Journal`):
/// - One session does everything, and it holds the service's lease, an advisory lock: while
///   another replica holds it, `open` waits (a standby). When the holder dies its session
///   ends and the lock with it; its writes went through that session, so a replica that lost
///   the lock can write nothing more (a write on a dead session fails and stops the host).
/// - An entry is acknowledged only once its INSERT committed (`synchronous_commit` as the
///   server has it: on by default, so a commit is on the server's disk).
/// - Statements of one operation (a snapshot's transaction) never interleave with another's:
///   the session is used by one operation at a time.
package final class PostgresJournal: JournalBackend {
    private let connection: PostgresConnection
    private let session = Mutex(())
    private let logger: Logger
    let address: PostgresAddress
    package var location: String { "\(address)" }
    let journalTable: String
    let snapshotTable: String
    let archiveTable: String

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    private init(connection: PostgresConnection, address: PostgresAddress, name: String, logger: Logger) {
        self.connection = connection
        self.address = address
        self.logger = logger
        journalTable = "glimpse_\(name)_journal"
        snapshotTable = "glimpse_\(name)_snapshots"
        archiveTable = "glimpse_\(name)_archive"
    }

    /// Connects (retrying while the server cannot be reached), takes `name`'s lease (waiting
    /// while another replica holds it: a standby) and makes the tables. `report` is told
    /// why it waits.
    package static func open(
        _ address: PostgresAddress, name: String, report: @escaping @Sendable (String) -> Void
    ) throws -> PostgresJournal {
        guard name.first?.isLetter == true,
            name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { throw Failure(description: "\(name): a store name is lowercase letters, digits and _") }
        var logger = Logger(label: "glimpse.journal.postgres")
        logger[metadataKey: "store"] = "\(address)"
        let connection = try connect(address, logger: logger, report: report)
        let journal = PostgresJournal(connection: connection, address: address, name: name, logger: logger)
        do {
            try journal.takeLease(name: name, report: report)
            try journal.createTables()
        } catch {
            try? connection.close().wait()
            throw error
        }
        return journal
    }

    private static func connect(
        _ address: PostgresAddress, logger: Logger, report: @Sendable (String) -> Void
    ) throws -> PostgresConnection {
        let tls: PostgresConnection.Configuration.TLS =
            address.requireTLS
            ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable
        let configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: tls)
        var attempt = 0
        while true {
            do {
                return try PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger
                ).wait()
            } catch let error as PSQLError
                where error.code == .server && !Self.comingBack.contains(error.serverInfo?[.sqlState] ?? "")
            {
                // The server answered: a refused login or an unknown database does not fix itself.
                throw Failure(description: "\(address): \(error.serverInfo?[.message] ?? "\(error)")")
            } catch {
                if attempt % 10 == 0 { report("\(address) cannot be reached (\(error)); retrying every second") }
                attempt += 1
                usleep(1_000_000)
            }
        }
    }

    /// What a server says while it starts or stops (admin_shutdown, crash_shutdown,
    /// cannot_connect_now): retried like one that cannot be reached.
    static let comingBack: Set<String> = ["57P01", "57P02", "57P03"]

    /// The lease: a session-level advisory lock on ('glmp', FNV-1a of the name).
    private func takeLease(name: String, report: @Sendable (String) -> Void) throws {
        let key = Int32(bitPattern: Self.fnv1a(name))
        var waited = false
        while true {
            let rows = try run("SELECT pg_try_advisory_lock(\(Self.leaseClass), \(key))")
            if try rows.first?.decode(Bool.self) == true { break }
            if !waited {
                report("standby: another replica holds glimpse-\(name)'s lease at \(address); taking over when it ends")
                waited = true
            }
            usleep(250_000)
        }
        if waited { report("glimpse-\(name)'s lease taken at \(address): this replica is active") }
    }

    /// 'glmp': the lock class of Glimpse's leases.
    static let leaseClass: Int32 = 0x676c_6d70

    package static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }

    private func createTables() throws {
        try run(
            """
            CREATE TABLE IF NOT EXISTS \(unescaped: journalTable) (
                sequence BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                instant DOUBLE PRECISION NOT NULL, kind TEXT NOT NULL, payload BYTEA NOT NULL)
            """)
        try run(
            """
            CREATE TABLE IF NOT EXISTS \(unescaped: snapshotTable) (
                sequence BIGINT PRIMARY KEY, instant DOUBLE PRECISION NOT NULL, format INTEGER NOT NULL,
                state BYTEA NOT NULL)
            """)
        try run(
            """
            CREATE TABLE IF NOT EXISTS \(unescaped: archiveTable) (
                sequence BIGINT PRIMARY KEY, key TEXT NOT NULL, record BYTEA NOT NULL)
            """)
        try run(
            "CREATE INDEX IF NOT EXISTS \(unescaped: archiveTable)_by_key ON \(unescaped: archiveTable) (key, sequence)"
        )
    }

    // MARK: The journal

    package func append<T>(
        _ kind: JournalEntry.Kind, instant: Date, payload: [UInt8], applying change: () throws -> T
    ) throws -> (sequence: Int64, result: T) {
        // The change first: one that throws leaves no entry. One that applied and whose
        // INSERT then fails stops the host, as a failed commit does.
        let result = try change()
        let rows = try run(
            """
            INSERT INTO \(unescaped: journalTable) (instant, kind, payload)
            VALUES (\(instant.timeIntervalSinceReferenceDate), \(kind.rawValue), \(ByteBuffer(bytes: payload)))
            RETURNING sequence
            """)
        guard let sequence = try rows.first?.decode(Int64.self) else {
            throw Failure(description: "\(address): the INSERT returned no sequence")
        }
        return (sequence, result)
    }

    package func appendBatch<T>(
        instant: Date, payloads: [[UInt8]], previous: Int64, applying change: (Int) throws -> T
    ) throws -> (sequence: Int64, results: [Result<T, any Error>]) {
        var results: [Result<T, any Error>] = []
        results.reserveCapacity(payloads.count)
        var kept: [ByteBuffer] = []
        for index in payloads.indices {
            do {
                results.append(.success(try change(index)))
                kept.append(ByteBuffer(bytes: payloads[index]))
            } catch {
                results.append(.failure(error))
            }
        }
        guard !kept.isEmpty else { return (previous, results) }
        // One statement, one commit; identities are handed out in the order of the rows.
        let rows = try run(
            """
            INSERT INTO \(unescaped: journalTable) (instant, kind, payload)
            SELECT \(instant.timeIntervalSinceReferenceDate), \(JournalEntry.Kind.command.rawValue), p
            FROM unnest(\(kept)::bytea[]) WITH ORDINALITY AS u(p, i) ORDER BY i
            RETURNING sequence
            """)
        var last = previous
        for row in rows { last = max(last, try row.decode(Int64.self)) }
        return (last, results)
    }

    /// Visits every entry after `sequence` in order, a page at a time.
    package func forEach(after sequence: Int64, _ body: (JournalEntry) throws -> Void) throws {
        var cursor = sequence
        while true {
            let rows = try run(
                """
                SELECT sequence, instant, kind, payload FROM \(unescaped: journalTable)
                WHERE sequence > \(cursor) ORDER BY sequence LIMIT 1000
                """)
            for row in rows {
                let (sequence, seconds, kindName, payload) = try row.decode((Int64, Double, String, ByteBuffer).self)
                guard let kind = JournalEntry.Kind(rawValue: kindName) else {
                    throw Journal.CorruptEntry(sequence: sequence, reason: "unknown kind \(kindName)")
                }
                try body(
                    JournalEntry(
                        sequence: sequence, instant: Date(timeIntervalSinceReferenceDate: seconds), kind: kind,
                        payload: Array(buffer: payload)))
                cursor = sequence
            }
            if rows.count < 1000 { return }
        }
    }

    package func count() throws -> Int {
        let rows = try run("SELECT COUNT(*) FROM \(unescaped: journalTable)")
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    // MARK: Snapshots and the archive

    package func latestSnapshot() throws -> JournalSnapshot? {
        let rows = try run(
            "SELECT sequence, instant, format, state FROM \(unescaped: snapshotTable) ORDER BY sequence DESC LIMIT 1")
        guard let row = rows.first else { return nil }
        let (sequence, seconds, format, state) = try row.decode((Int64, Double, Int32, ByteBuffer).self)
        return JournalSnapshot(
            sequence: sequence, instant: Date(timeIntervalSinceReferenceDate: seconds), format: Int(format),
            state: Array(buffer: state))
    }

    /// As `Journal.writeSnapshot`: one transaction, or nothing.
    package func writeSnapshot(
        _ snapshot: JournalSnapshot, archiving records: [ArchivedRecord], keep: Int
    ) throws -> Bool {
        try session.withLock { _ in
            try execute("BEGIN")
            do {
                let stored = try execute("SELECT MAX(sequence) FROM \(unescaped: snapshotTable)")
                if let latest = try stored.first?.decode(Int64?.self), latest >= snapshot.sequence {
                    try execute("ROLLBACK")
                    return false
                }
                if !records.isEmpty {
                    try execute(
                        """
                        INSERT INTO \(unescaped: archiveTable) (sequence, key, record)
                        SELECT * FROM unnest(\(records.map(\.sequence))::int8[], \(records.map(\.key))::text[],
                            \(records.map { ByteBuffer(bytes: $0.bytes) })::bytea[])
                        ON CONFLICT (sequence) DO NOTHING
                        """)
                    try execute(
                        """
                        DELETE FROM \(unescaped: archiveTable)
                        WHERE sequence <= (SELECT MAX(sequence) FROM \(unescaped: archiveTable)) - \(Int64(keep))
                        """)
                }
                try execute("DELETE FROM \(unescaped: snapshotTable)")
                try execute(
                    """
                    INSERT INTO \(unescaped: snapshotTable) (sequence, instant, format, state)
                    VALUES (\(snapshot.sequence), \(snapshot.instant.timeIntervalSinceReferenceDate),
                        \(Int32(snapshot.format)), \(ByteBuffer(bytes: snapshot.state)))
                    """)
                try execute("DELETE FROM \(unescaped: journalTable) WHERE sequence <= \(snapshot.sequence)")
                try execute("COMMIT")
                return true
            } catch {
                _ = try? execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Whether no entry was ever compacted away: identities may skip numbers (a failed
    /// INSERT uses one up), so it is read from the snapshot, not from the first entry.
    package func isComplete(through sequence: Int64) throws -> Bool {
        guard sequence > 0 else { return true }
        let rows = try run("SELECT COALESCE(MAX(sequence), 0) FROM \(unescaped: snapshotTable)")
        return try rows.first?.decode(Int64.self) == 0
    }

    package func archived(after sequence: Int64, key: String?, limit: Int) throws -> [ArchivedRecord] {
        let rows =
            if let key {
                try run(
                    """
                    SELECT sequence, key, record FROM \(unescaped: archiveTable)
                    WHERE key = \(key) AND sequence > \(sequence) ORDER BY sequence LIMIT \(Int64(limit))
                    """)
            } else {
                try run(
                    """
                    SELECT sequence, key, record FROM \(unescaped: archiveTable)
                    WHERE sequence > \(sequence) ORDER BY sequence LIMIT \(Int64(limit))
                    """)
            }
        return try rows.map { row in
            let (sequence, key, record) = try row.decode((Int64, String, ByteBuffer).self)
            return ArchivedRecord(sequence: sequence, key: key, bytes: Array(buffer: record))
        }
    }

    /// Ends the session, and the lease with it.
    package func close() throws {
        try session.withLock { _ in try connection.close().wait() }
    }

    // MARK: The session

    /// One statement, with the session to itself.
    @discardableResult
    private func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
        try session.withLock { _ in try execute(query) }
    }

    /// One statement; the caller holds the session. A session that ended (the server
    /// closed it, the network failed) fails the statement at once, and one the server does
    /// not answer within `statementTimeout` is closed and fails: either way the host stops
    /// and the process exits, the lease gone with the session, never a write hanging.
    @discardableResult
    private func execute(_ query: PostgresQuery) throws -> PostgresQueryResult {
        guard !connection.isClosed else { throw Failure(description: "\(address): the session ended") }
        let answer = connection.query(query, logger: logger)
        let promise = answer.eventLoop.makePromise(of: PostgresQueryResult.self)
        answer.cascade(to: promise)
        let connection = self.connection
        let description = "\(address): no answer within \(Self.statementTimeout); session closed"
        let timer = answer.eventLoop.scheduleTask(in: Self.statementTimeout) {
            promise.fail(Failure(description: description))
            connection.close().whenComplete { _ in }
        }
        defer { timer.cancel() }
        do {
            return try promise.futureResult.wait()
        } catch let error as PSQLError {
            throw Failure(description: "\(address): \(error.serverInfo?[.message] ?? "\(error.code)")")
        }
    }

    /// How long a statement may go unanswered: far beyond a snapshot's transaction.
    static let statementTimeout = TimeAmount.seconds(60)
}

extension Journal {
    /// `name`'s journal in PostgreSQL, once this replica holds its lease: while another holds
    /// it, this waits (a standby), telling `report` why. An acknowledged write is committed
    /// on the server (its `synchronous_commit`; on by default: on its disk).
    package static func postgres(
        _ address: PostgresAddress, name: String, report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> Journal {
        Journal(backend: try PostgresJournal.open(address, name: name, report: report))
    }
}
