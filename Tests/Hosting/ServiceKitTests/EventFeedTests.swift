import RPCCore
import ServiceKit
import Testing

@Suite struct EventFeedTests {
    @Test func batchesArriveWholeNumberedInOrder() async throws {
        let feed = EventFeed<UInt64>()
        let subscription = feed.subscribe()
        feed.publish { $0 }
        feed.publish(count: 3) { index, sequence in sequence * 10 + UInt64(index) }
        feed.finish()
        var batches: [[UInt64]] = []
        for try await batch in subscription { batches.append(batch) }
        #expect(batches == [[1], [20, 31, 42]])
        #expect(feed.sequence == 4)
    }

    @Test func aWatcherTooFarBehindIsEndedNotSilentlyShort() async throws {
        let feed = EventFeed<Int>(limit: 5)
        let slow = feed.subscribe()
        let reader = feed.subscribe()
        var iterator = reader.makeAsyncIterator()
        for round in 0..<4 {
            feed.publish(count: 2) { index, _ in round * 2 + index }
            // This one keeps up: taking a batch frees its backlog.
            #expect(try await iterator.next() == [round * 2, round * 2 + 1])
        }
        // The slow one had 6 > 5 waiting after the third batch: it gets what it had, then the error.
        var received: [Int] = []
        await #expect(throws: FellBehind(limit: 5)) {
            for try await batch in slow { received += batch }
        }
        #expect(received == [0, 1, 2, 3])
        #expect(FellBehind(limit: 5).rpcError.code == .resourceExhausted)
        feed.finish()
        #expect(try await iterator.next() == nil)
    }
}
