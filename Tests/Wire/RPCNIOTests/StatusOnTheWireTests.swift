import NIOCore
import RPCCore
import RPCNIO
import RPCTestService
import Testing

/// What a status or metadata could do to the stream that carries it: a message ending in a
/// space (a header value may not: an nghttp2 peer resets the stream), a message too long for
/// a header block, metadata too large to send. Each reaches the client as a status, promptly:
/// the deadlines here are a guard against a hang, never what the call ends with.
@Suite("Loopback: statuses and metadata that could not go on the wire as they were")
struct StatusOnTheWireTests {
    static let guardTimeout: Duration = .seconds(60)

    static func failing(_ steering: [String: String], binaryMessage: String? = nil) async throws -> RPCError? {
        var built = Metadata()
        for (key, value) in steering { built.add(.string(value), forKey: key) }
        if let binaryMessage { built.addBinary(Array(binaryMessage.utf8), forKey: "x-fail-message-bin") }
        let metadata = built
        return await #expect(throws: RPCError.self) {
            try await Loopback.run { try await $0.client.steeredUnary([], metadata: metadata, timeout: guardTimeout) }
        }
    }

    @Test("a status message with a space at either end arrives as it was sent")
    func spacesAtTheEnds() async throws {
        let error = try await Self.failing(["x-fail-code": "9"], binaryMessage: " both ends ")
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message == " both ends ")
    }

    @Test("a status message too long for a header block arrives cut, with a marker, and the call ends")
    func longMessage() async throws {
        // 5 bytes * 20,000 = 100,000 bytes: past nghttp2's 64 KiB header block limit.
        let error = try await Self.failing([
            "x-fail-code": "5", "x-fail-message": "long.", "x-fail-message-repeat": "20000",
        ])
        #expect(error?.code == .notFound)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("long.long."))
        #expect(message.hasSuffix("…[truncated]"))
        #expect(message.utf8.count <= 4096)
    }

    @Test(
        "metadata too large to send: the status goes alone, INTERNAL, and says why (not a hang)",
        arguments: [
            ["x-pad-trailing": "100000"],
            ["x-pad-initial": "100000"],
            ["x-pad-trailing": "100000", "x-fail-code": "5", "x-fail-message": "nope"],
        ])
    func metadataTooLarge(_ steering: [String: String]) async throws {
        let error = try await Self.failing(steering)
        #expect(error?.code == .internal)
        #expect(error?.message.contains("too large to send") == true)
    }
}
