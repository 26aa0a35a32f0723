import RPCCore
import Testing

@Suite("Length-prefixed message reassembly")
struct MessageDeframerTests {
    static let messages: [[UInt8]] = [[], [1], Array(repeating: 7, count: 300), Array(0..<200).map(UInt8.init)]
    static var wire: [UInt8] { messages.flatMap(MessagePrefix.framed) }

    @Test func reassemblesMessagesCutAtEveryPossiblePlace() throws {
        let wire = Self.wire
        for cut in 0...wire.count {
            var deframer = MessageDeframer(maxMessageSize: 1024)
            var received: [[UInt8]] = []
            try deframer.process(Array(wire[..<cut])) { received.append($0) }
            try deframer.process(Array(wire[cut...])) { received.append($0) }
            #expect(received == Self.messages, "cut at \(cut)")
            try deframer.finish()
        }
    }

    @Test func reassemblesByteByByte() throws {
        var deframer = MessageDeframer(maxMessageSize: 1024)
        var received: [[UInt8]] = []
        for byte in Self.wire { try deframer.process([byte]) { received.append($0) } }
        #expect(received == Self.messages)
    }

    @Test func rejectsAMessageOverTheLimitBeforeItsBodyArrives() {
        var deframer = MessageDeframer(maxMessageSize: 100)
        #expect(throws: MessageDeframer.Failure.messageTooLarge(length: 101, limit: 100)) {
            try deframer.process([0, 0, 0, 0, 101]) { _ in }
        }
        let failure = MessageDeframer.Failure.messageTooLarge(length: 101, limit: 100)
        #expect(failure.status.code == .resourceExhausted)
    }

    @Test func acceptsAMessageExactlyAtTheLimit() throws {
        var deframer = MessageDeframer(maxMessageSize: 3)
        var received: [[UInt8]] = []
        try deframer.process(MessagePrefix.framed([1, 2, 3])) { received.append($0) }
        #expect(received == [[1, 2, 3]])
    }

    @Test func rejectsCompressedMessagesWithoutAnEncoding() {
        var deframer = MessageDeframer(maxMessageSize: 100)
        #expect(throws: MessageDeframer.Failure.compressedWithoutEncoding) {
            try deframer.process([1, 0, 0, 0, 1, 9]) { _ in }
        }
    }

    @Test func rejectsUnknownFlags() {
        var deframer = MessageDeframer(maxMessageSize: 100)
        #expect(throws: MessageDeframer.Failure.invalidFlags(0x80)) {
            try deframer.process([0x80, 0, 0, 0, 0]) { _ in }
        }
    }

    @Test(arguments: [1, 4, 5, 7])
    func reportsAStreamThatEndsInsideAMessage(_ cut: Int) throws {
        var deframer = MessageDeframer(maxMessageSize: 100)
        try deframer.process(Array(MessagePrefix.framed([1, 2, 3])[..<cut])) { _ in }
        #expect(throws: MessageDeframer.Failure.truncated) { try deframer.finish() }
    }
}
