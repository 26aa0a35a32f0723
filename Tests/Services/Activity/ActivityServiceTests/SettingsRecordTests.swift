import ActivityEngine
import ActivityService
import EngineHosting
import Foundation
import GlimpseVocabulary
import ServiceKit
import Testing

/// A journal replays under the settings it was written with: they are kept beside it, and a
/// service started on it with others does not start.
@Suite("the activity settings a journal was written with")
struct SettingsRecordTests {
    /// The service opened again on `directory`'s journal.
    func reopen(_ directory: URL, _ settings: ActivitySettings = .defaults) async throws -> ActivityServer {
        try await ActivityServer.open(
            directory: directory, clock: HostClock(.manual(start: start)), settings: settings, authentication: .none,
            outbound: .init(address: nil), tokenClock: nil)
    }

    @Test("activities acknowledged under a cap of 8 come back after a restart with it; a restart under 5 is refused")
    func kept() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "activity-settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var eight = ActivitySettings.defaults
        eight.targetMaximum = 8
        let f = try await Fixture.make(settings: eight, directory: directory)
        var ids: [String] = []
        for _ in 0..<8 { ids.append(try await f.requestActivity().0) }
        try await f.server.close()
        let record = try String(contentsOf: directory.appendingPathComponent("activity-settings.txt"), encoding: .utf8)
        #expect(record.contains("max-activities-per-app 8\n"))

        let error = await #expect(throws: SettingsMismatch.self) {
            try await reopen(directory)
        }
        #expect(error?.description.contains("--max-activities-per-app 8") == true)
        #expect(error?.description.contains("started with --max-activities-per-app 5") == true)

        let again = try await reopen(directory, eight)
        let ongoing = await again.host.read { state in
            ids.filter { state.manager.activity(ActivityID($0)!)?.state == .active }
        }
        #expect(ongoing == ids)
        try await again.close()
    }

    @Test("a journal from before the record was kept is taken as written with the defaults")
    func olderJournal() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "activity-settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let f = try await Fixture.make(directory: directory)
        _ = try await f.requestActivity()
        try await f.server.close()
        try FileManager.default.removeItem(at: directory.appendingPathComponent("activity-settings.txt"))
        try await reopen(directory).close()
        var other = ActivitySettings.defaults
        other.hourlyPushBudget = 99
        await #expect(throws: SettingsMismatch.self) { try await reopen(directory, other) }
    }
}
