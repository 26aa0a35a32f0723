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

    @Test func streamTableForgetsTheCachedStreamOnRemoval() {
        final class Box {}
        var table = StreamTable<Box>()
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
