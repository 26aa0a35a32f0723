import EngineHosting
import Foundation
import Testing

@Suite struct JournalTests {
    @Test func aFileJournalIsOneSQLiteFilePerServiceInWALMode() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try Journal(directory: directory, name: "timeline")
        #expect(journal.path == directory.appendingPathComponent("timeline.sqlite").path)
        #expect(try journal.journalMode() == "wal")
        #expect(try journal.synchronousLevel() == 1)  // NORMAL: the default
        try journal.close()
    }

    @Test func powerLossDurabilitySetsSynchronousFull() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try Journal(
            directory: directory, name: "activity", settings: JournalSettings(durability: .powerLoss))
        #expect(try journal.synchronousLevel() == 2)
        try journal.close()
    }

    @Test func anInMemoryJournalStartsEmpty() throws {
        let journal = try Journal.inMemory()
        #expect(journal.path == nil)
        #expect(try journal.count() == 0)
    }
}
