@testable import RPCNIO
import Testing

@Suite("Connection state machines as values")
struct StateMachineTests {
    @Test func keepaliveHasOnePingInFlight() throws {
        var keepalive = KeepaliveState()
        let firstPing = keepalive.pingDue()
        let first = try #require(firstPing)
        let again = keepalive.pingDue()
        #expect(again == nil, "no second PING while one is unanswered")
        #expect(keepalive.timedOut(first))
        let wrong = keepalive.ackReceived(first &+ 1)
        #expect(!wrong, "an ACK for another payload does not count")
        let right = keepalive.ackReceived(first)
        #expect(right)
        #expect(!keepalive.timedOut(first), "answered: its timer no longer closes the connection")
        let secondPing = keepalive.pingDue()
        let second = try #require(secondPing)
        #expect(second != first)
    }

    @Test func gracefulShutdownGoesNoticeThenFinalGoAwayOnce() {
        var shutdown = GracefulShutdownState()
        #expect(!shutdown.isShuttingDown)
        guard case .sendNoticeAndPing(let ping) = shutdown.begin() else { Issue.record("no notice"); return }
        let twice = shutdown.begin()
        #expect(twice == .none, "beginning twice sends nothing more")
        let otherPing = shutdown.pingAcknowledged(ping &+ 1)
        #expect(otherPing == .none)
        let acknowledged = shutdown.pingAcknowledged(ping)
        #expect(acknowledged == .sendFinalGoAway)
        let repeated = shutdown.pingAcknowledged(ping)
        #expect(repeated == .none, "the final GOAWAY goes out once")
        #expect(shutdown.isShuttingDown)
    }

    @Test func streamTableForgetsARemovedStream() {
        final class Box {}
        let table = StreamTable<Box>()
        let box = Box()
        table[1] = box
        let cached = table[1]
        #expect(cached === box)
        let removed = table.removeValue(forKey: 1)
        #expect(removed === box)
        let gone = table[1]
        #expect(gone == nil)
        #expect(table.isEmpty)
    }

    @Test func streamTableMatchesADictionaryThroughInsertionsRemovalsAndGrowth() {
        final class Box {
            let id: Int32
            init(_ id: Int32) { self.id = id }
        }
        var generator = SystemRandomNumberGenerator()
        let table = StreamTable<Box>(capacity: 4)
        var model: [Int32: Box] = [:]
        // Odd ids as clients use them, plus ids spaced to share home slots.
        let sequential: [Int32] = (0..<400).map { Int32(2 * $0 + 1) }
        let spaced: [Int32] = (1...40).map { Int32($0 * 1024 + 1) }
        let ids = sequential + spaced
        for step in 0..<20_000 {
            let id = ids.randomElement(using: &generator)!
            if model[id] == nil || Bool.random(using: &generator) {
                let box = Box(id)
                table[id] = box
                model[id] = box
            } else {
                let removed = step.isMultiple(of: 2) ? table.removeValue(forKey: id) : table[id]
                if !step.isMultiple(of: 2) { table[id] = nil }
                #expect(removed === model.removeValue(forKey: id))
            }
            if step.isMultiple(of: 500) {
                for id in ids { #expect(table[id] === model[id], "id \(id) at step \(step)") }
                #expect(table.count == model.count)
                #expect(Set(table.values.map(\.id)) == Set(model.keys))
            }
        }
        #expect(table[0] == nil, "not a stream id")
        table.removeAll()
        #expect(table.isEmpty)
        #expect(ids.allSatisfy { table[$0] == nil })
    }

    @Test func outboundMessagesAreFramedAcrossAnyCut() {
        var messages = OutboundMessages()
        messages.append([1, 2, 3])
        messages.append([])
        messages.append([9])
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 2)
        while !messages.isEmpty {
            let count = buffer.withUnsafeMutableBufferPointer { messages.copy(into: $0.baseAddress!, capacity: 2) }
            out.append(contentsOf: buffer[..<count])
        }
        #expect(out == [0, 0, 0, 0, 3, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 9])
    }
}
