import EngineHosting
import Foundation
import Testing

/// A journal holds the apps' tokens: its file (and SQLite's -wal and -shm beside it) is
/// 0600, in a folder made 0700; a file an older version left readable by all is closed.
@Suite("Journal files are private")
struct PrivateStoreTests {
    func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("a new journal: 0600 files in a 0700 folder made for it")
    func newJournal() throws {
        let directory = try scratchDirectory().appendingPathComponent("data/timeline")
        let journal = try Journal(directory: directory, name: "timeline")  // its schema is written: WAL and SHM exist
        defer { try? journal.close() }
        #expect(try mode(directory.path) == 0o700)
        #expect(try mode(directory.deletingLastPathComponent().path) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            let path = directory.appendingPathComponent("timeline.sqlite\(suffix)").path
            #expect(try mode(path) == 0o600, "\(path)")
        }
    }

    @Test("a journal an older version wrote 0644 is 0600 once opened")
    func olderJournal() throws {
        let directory = try scratchDirectory()
        let path = directory.appendingPathComponent("intent.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        let journal = try Journal(directory: directory, name: "intent")
        defer { try? journal.close() }
        #expect(try mode(path) == 0o600)
    }
}
