import ActivityService
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseVocabulary
import ServiceKit
import Testing

/// The push log beside snapshots: each snapshot hands the pushes logged since the last one
/// to the journal's archive, so memory and snapshots hold only those; the log reads back
/// whole (paged, by app) from the two, and after a restart.
@Suite("the push log goes to the archive with each snapshot")
struct PushArchiveTests {
    @Test("memory keeps the pushes since the last snapshot; the whole log reads back, paged, by app, after a restart")
    func archived() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "push-archive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // No snapshot at close: the restart replays what came after the last one, as after a kill.
        let policy = SnapshotPolicy(every: 40, atClose: false)
        let f = try await Fixture.make(directory: directory, snapshots: policy)
        let (_, token) = try await f.requestActivity()
        let other = [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.other.push-type.liveactivity")]
        for n in 0..<300 {
            // Updates, and every third a push for another app's topic (refused, logged all the same).
            let answer =
                n % 3 == 0
                ? await f.push("/3/device/\(token)", body: update(n, at: start), headers: other)
                : await f.livePush(token, body: update(n, at: start.addingTimeInterval(Double(n))))
            #expect(answer.status == (n % 3 == 0 ? 400 : 200))
        }
        await f.server.host.snapshotAsideSettled()
        #expect(await f.server.host.snapshotsTaken > 0)
        let held = await f.server.host.read { $0.pushes(after: 0, limit: 1_000, app: nil) }
        let archived = try f.server.host.journal.archived(after: 0, limit: 1_000)
        #expect(held.count < 300)
        #expect(archived.count + held.count >= 300)
        #expect(archived.map(\.sequence) == Array(1...Int64(archived.count)))

        let all = try await f.server.pushes(after: 0, limit: 1_000, app: nil)
        #expect(all.map(\.sequence) == Array(1...300))
        #expect(all.map(\.status) == (0..<300).map { $0 % 3 == 0 ? 400 : 200 })
        #expect(try await f.server.pushes(after: 100, limit: 50, app: nil) == Array(all[100..<150]))
        let others = try await f.server.pushes(after: 0, limit: 1_000, app: AppID("com.example.other"))
        #expect(others.map(\.sequence) == Array(stride(from: 1, through: 300, by: 3)))
        #expect(try await f.server.pushes(after: 250, limit: 1_000, app: AppID(app)).count == 34)
        try await f.server.close()

        let again = try await ActivityServer.open(
            directory: directory, clock: HostClock(.manual(start: start)), authentication: .none,
            outbound: .init(address: nil), tokenClock: nil, snapshots: policy)
        #expect(try await again.pushes(after: 0, limit: 1_000, app: nil) == all)
        try await again.close()
    }
}
