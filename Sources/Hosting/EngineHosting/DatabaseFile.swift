package import GRDB
import Synchronization

/// One SQLite file, opened on use and closed by `OpenDatabases` when the process holds more
/// files than its open-files limit allows and this one is the least recently used. A device's
/// stores are such files: a process with more devices than its limit holds keeps serving
/// each of them (the idle ones reopen on their next use: a fraction of a millisecond),
/// instead of refusing a device or failing a write. Closing a WAL database checkpoints it,
/// so what is committed stays committed across a close.
///
/// An in-memory database (`path` nil) is never closed by the pool: closing would lose it.
package final class DatabaseFile: Sendable {
    /// The file, or nil in memory.
    package let path: String?
    private let configuration: Configuration
    /// Per-connection settings, applied after each open (after GRDB's own WAL set-up).
    private let prepare: @Sendable (DatabaseQueue) throws -> Void
    private let pool: OpenDatabases?
    private let state: Mutex<State>
    /// The pool's tick of the last use: read by the pool without taking `state`.
    let lastUse = Atomic<UInt64>(0)

    private struct State {
        var queue: DatabaseQueue?
        var users = 0
        var closed = false
    }

    /// Closed for good (`close()`): nothing opens it again.
    package struct Closed: Error, CustomStringConvertible {
        package var path: String
        package var description: String { "\(path): the database is closed" }
    }

    /// A file at `path`, opened now (so that a file that cannot be opened fails here) and
    /// afterwards whenever it is used while closed.
    package init(
        path: String, configuration: Configuration, pool: OpenDatabases = .shared,
        prepare: @escaping @Sendable (DatabaseQueue) throws -> Void = { _ in }
    ) throws {
        self.path = path
        self.configuration = configuration
        self.prepare = prepare
        self.pool = pool
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try prepare(queue)
        state = Mutex(State(queue: queue))
        lastUse.store(pool.tick(), ordering: .relaxed)
        pool.opened(self)
    }

    /// A database in memory, living as long as this object.
    package init(inMemory configuration: Configuration = Configuration()) throws {
        path = nil
        self.configuration = configuration
        prepare = { _ in }
        pool = nil
        state = Mutex(State(queue: try DatabaseQueue(configuration: configuration)))
    }

    deinit { pool?.forget(self) }

    /// Runs `body` with the database open (reopening it if the pool closed it); the pool does
    /// not close it meanwhile.
    package func use<T>(_ body: (DatabaseQueue) throws -> T) throws -> T {
        let (queue, reopened) = try state.withLock { state throws -> (DatabaseQueue, Bool) in
            if let queue = state.queue {
                state.users += 1
                return (queue, false)
            }
            guard !state.closed, let path else { throw Closed(path: path ?? ":memory:") }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try prepare(queue)
            state.queue = queue
            state.users += 1
            return (queue, true)
        }
        defer {
            state.withLock { $0.users -= 1 }
            if let pool { lastUse.store(pool.tick(), ordering: .relaxed) }
        }
        // Outside the lock: the pool may close other files now (never this one, in use).
        if reopened { pool?.opened(self) }
        return try body(queue)
    }

    /// `DatabaseQueue.read` on the open file.
    package func read<T>(_ body: (Database) throws -> T) throws -> T { try use { try $0.read(body) } }

    /// `DatabaseQueue.write` (one transaction) on the open file.
    package func write<T>(_ body: (Database) throws -> T) throws -> T { try use { try $0.write(body) } }

    /// `DatabaseQueue.writeWithoutTransaction` on the open file.
    package func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try use { try $0.writeWithoutTransaction(body) }
    }

    /// Whether the connection is open now (tests).
    package var isOpen: Bool { state.withLock { $0.queue != nil } }

    /// Closes the connection if nobody uses it; returns whether it is closed. The next use
    /// opens it again.
    func closeIfIdle() -> Bool {
        state.withLock { state in
            guard state.users == 0, let queue = state.queue else { return state.queue == nil }
            // A close that fails (it does not while idle) leaves the connection to its deinit.
            try? queue.close()
            state.queue = nil
            return true
        }
    }

    /// Closes the file for good: a later use throws `Closed`.
    package func close() throws {
        let queue = state.withLock { state -> DatabaseQueue? in
            state.closed = true
            defer { state.queue = nil }
            return state.queue
        }
        pool?.forget(self)
        try queue?.close()
    }
}

/// The SQLite files a process holds open: at most `limit`; past it the least recently used
/// idle ones are closed (a sixteenth of the limit at a time, so that the choosing — a sort —
/// is paid once per many opens). `DeviceTable` sets the limit from the open-files limit.
package final class OpenDatabases: Sendable {
    /// The process's pool.
    package static let shared = OpenDatabases()

    private struct Entry {
        weak var file: DatabaseFile?
    }

    private let files = Mutex<[ObjectIdentifier: Entry]>([:])
    private let clock = Atomic<UInt64>(0)
    private let most: Atomic<Int>
    private let closes = Atomic<Int>(0)

    /// `limit`: the most files open at once (unlimited by default).
    package init(limit: Int = .max) {
        most = Atomic(max(1, limit))
    }

    /// The most files open at once.
    package var limit: Int {
        get { most.load(ordering: .relaxed) }
        set { most.store(max(1, newValue), ordering: .relaxed) }
    }

    /// How many files are open now.
    package var count: Int { files.withLock { $0.count } }

    /// How many times a file was closed to make room (since the start).
    package var closed: Int { closes.load(ordering: .relaxed) }

    func tick() -> UInt64 { clock.add(1, ordering: .relaxed).newValue }

    /// `file` was opened: counted, and past the limit the least recently used idle files
    /// are closed.
    func opened(_ file: DatabaseFile) {
        let limit = self.limit
        let chosen: [DatabaseFile] = files.withLock { files in
            files[ObjectIdentifier(file)] = Entry(file: file)
            guard files.count > limit else { return [] }
            let excess = files.count - limit + max(0, limit / 16)
            var open: [(use: UInt64, file: DatabaseFile)] = []
            open.reserveCapacity(files.count)
            for (id, entry) in files {
                if let other = entry.file {
                    if other !== file { open.append((other.lastUse.load(ordering: .relaxed), other)) }
                } else {
                    files[id] = nil
                }
            }
            let oldest = open.sorted { $0.use < $1.use }.prefix(excess).map(\.file)
            for other in oldest { files[ObjectIdentifier(other)] = nil }
            return oldest
        }
        for other in chosen {
            if other.closeIfIdle() {
                closes.add(1, ordering: .relaxed)
            } else {
                // In use: it stays open and counted.
                files.withLock { $0[ObjectIdentifier(other)] = Entry(file: other) }
            }
        }
    }

    /// `file` is closed for good, or gone.
    func forget(_ file: DatabaseFile) {
        _ = files.withLock { $0.removeValue(forKey: ObjectIdentifier(file)) }
    }
}
