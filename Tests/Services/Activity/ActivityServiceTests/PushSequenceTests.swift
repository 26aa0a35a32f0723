import ActivityService
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseVocabulary
import ServiceKit
import Testing

/// A change names the push log's last sequence when it was made, so a watcher that logs
/// pushes beside changes reads `ListPushes` only when a change is ahead of what it has read.
@Suite("changes carry the push log's sequence")
struct PushSequenceTests {
    @Test("a push's change names its record; a change with no push since names the same")
    func changesNameThePushLog() async throws {
        let f = try await Fixture.make()
        let (id, token) = try await f.requestActivity()
        var changes = f.server.feed.subscribe().makeAsyncIterator()

        for n in 1...3 {
            let answer = await f.livePush(token, body: update(n, at: start.addingTimeInterval(Double(n))))
            #expect(answer.status == 200)
            let logged = try await f.server.pushes(after: 0, limit: 100, app: nil)
            let record = try #require(logged.last)
            let batch = try #require(try await changes.next())
            let content = try #require(batch.first { $0.activityId == id })
            #expect(record.sequence == UInt64(n))
            #expect(content.pushSequence == record.sequence)
        }

        // An end from the app itself: no new push, the same sequence as the last change.
        var end = GlimpseActivityV1.EndActivityRequest()
        end.activityId = id
        _ = try await f.server.host.submit(ActivityCommand(.end(end)))
        let batch = try #require(try await changes.next())
        #expect(!batch.isEmpty)
        #expect(batch.allSatisfy { $0.pushSequence == 3 })
        try await f.server.close()
    }
}
