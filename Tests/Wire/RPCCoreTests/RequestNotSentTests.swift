import RPCCore
import Synchronization
import Testing

/// A unary call whose request never left (the transport says so with `RequestNotSent`'s
/// trailers) is made again on a new stream, up to `RequestNotSent.maximumAttempts` in all;
/// any other failure is the call's outcome at once. A scripted transport plays the
/// connection: each stream it opens ends as the next script says.
@Suite("Calls whose request never left")
struct RequestNotSentTests {
    final class ScriptedTransport: ClientTransport {
        let endings: Mutex<[[RPCResponsePart]]>
        let opened = Mutex(0)

        init(_ endings: [[RPCResponsePart]]) { self.endings = Mutex(endings) }

        func openStream(_ head: ClientRequestHead) async throws -> ClientStream {
            opened.withLock { $0 += 1 }
            let parts = endings.withLock { $0.isEmpty ? [] : $0.removeFirst() }
            let inbound = InboundQueue<RPCResponsePart>()
            for part in parts { _ = inbound.push(part) }
            inbound.finish()
            return ClientStream(inbound: inbound, outbound: Outbound())
        }

        func run() async throws {}
        func beginGracefulShutdown() {}
    }

    struct Outbound: ClientStreamOutbound {
        func write(_ message: [UInt8], endStream: Bool) async throws {}
        func flush() {}
        func finish() {}
        func cancel() {}
        var isClosed: Bool { false }
    }

    static let notSent: [RPCResponsePart] = [
        .status(Status(code: .unavailable, message: "The connection closed"), RequestNotSent.trailers)
    ]
    static let answered: [RPCResponsePart] = [.metadata(Metadata()), .message([7]), .status(.ok, Metadata())]
    static let method = MethodDescriptor(service: "s", method: "m")

    static func call(_ transport: ScriptedTransport) async throws -> [UInt8] {
        try await GRPCClient(transport: transport).unary(
            request: ClientRequest(message: [1]), method: method, serializer: RawBytesCoder(),
            deserializer: RawBytesCoder()
        ).message
    }

    @Test func aCallWhoseRequestNeverLeftIsMadeAgain() async throws {
        let transport = ScriptedTransport([Self.notSent, Self.notSent, Self.answered])
        #expect(try await Self.call(transport) == [7])
        #expect(transport.opened.withLock { $0 } == 3)
    }

    @Test func notForever() async throws {
        let transport = ScriptedTransport(Array(repeating: Self.notSent, count: 10))
        let error = await #expect(throws: RPCError.self) { try await Self.call(transport) }
        #expect(error?.code == .unavailable)
        #expect(transport.opened.withLock { $0 } == RequestNotSent.maximumAttempts)
    }

    @Test func anyOtherFailureIsTheOutcome() async throws {
        let unavailable: [RPCResponsePart] = [.status(Status(code: .unavailable, message: "down"), Metadata())]
        let transport = ScriptedTransport([unavailable, Self.answered])
        await #expect(throws: RPCError.self) { try await Self.call(transport) }
        #expect(transport.opened.withLock { $0 } == 1)
    }
}
