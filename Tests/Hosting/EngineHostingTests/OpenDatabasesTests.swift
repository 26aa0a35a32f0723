import EngineHosting
import Foundation
import GRDB
import Testing

@Suite struct OpenDatabasesTests {
    private func file(_ directory: URL, _ name: String, pool: OpenDatabases) throws -> DatabaseFile {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let file = try DatabaseFile(
            path: directory.appendingPathComponent("\(name).sqlite").path, configuration: configuration, pool: pool)
        try file.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (n INTEGER)") }
        return file
    }

    private func openFiles(under directory: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { fd in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
            return target?.hasPrefix(directory.path) == true
        }
    }

    @Test func pastItsLimitThePoolClosesTheLeastRecentlyUsedAndAUseReopensWithEveryCommit() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = OpenDatabases(limit: 3)
        var files: [DatabaseFile] = []
        for index in 0..<8 {
            let file = try file(directory, "d\(index)", pool: pool)
            try file.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [index]) }
            files.append(file)
            #expect(pool.count <= 3)
        }
        // The three used last are open, the rest closed: their files are closed too.
        #expect(files.map(\.isOpen) == [false, false, false, false, false, true, true, true])
        #expect(try openFiles(under: directory) <= 3 * 3)
        // Each reopens on use, with what it committed, and the oldest now makes room.
        for (index, file) in files.enumerated() {
            try file.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [index + 100]) }
            let rows = try file.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") }
            #expect(rows == [index, index + 100])
            #expect(pool.count <= 3)
        }
        #expect(pool.closed >= 10)
        #expect(try openFiles(under: directory) <= 3 * 3)
    }

    @Test func aFileInUseIsNotClosedUnderItsUser() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = OpenDatabases(limit: 1)
        let busy = try file(directory, "busy", pool: pool)
        try busy.use { queue in
            // Opening two others inside a use of the first: the first stays open (over the
            // limit for now), the second of them is closed for the third.
            let other = try file(directory, "other", pool: pool)
            let third = try file(directory, "third", pool: pool)
            #expect(busy.isOpen)
            #expect(!other.isOpen && third.isOpen)
            try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(try busy.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func aFileClosedForGoodSaysSoAndLeavesThePool() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = OpenDatabases(limit: 4)
        let file = try file(directory, "gone", pool: pool)
        #expect(pool.count == 1)
        try file.close()
        #expect(pool.count == 0)
        #expect(throws: DatabaseFile.Closed.self) { try file.read { _ in 0 } }
    }

    @Test func aJournalClosedByThePoolReopensWithItsSettingsAndItsState() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = OpenDatabases(limit: 1)
        let first = try Journal(
            path: directory.appendingPathComponent("a.sqlite").path, settings: JournalSettings(durability: .powerLoss),
            databases: pool)
        let snapshot = JournalSnapshot(
            sequence: 7, instant: Date(timeIntervalSinceReferenceDate: 3), format: 1, state: [1, 2])
        #expect(try first.writeSnapshot(snapshot))
        let second = try Journal(path: directory.appendingPathComponent("b.sqlite").path, databases: pool)
        #expect(try second.count() == 0)
        #expect(pool.closed == 1)
        // Reopened: synchronous FULL again (a per-connection setting), the snapshot there.
        #expect(try first.synchronousLevel() == 2)
        #expect(try first.latestSnapshot()?.sequence == 7)
        #expect(try second.synchronousLevel() == 1)
        try first.close()
        try second.close()
    }
}
