import NIOCore
import RPCCore
import RPCNIO
import RPCTestService
import Testing

@Suite("Loopback: metadata, statuses, limits")
struct LoopbackFeatureTests {
    @Test func metadataTravelsBothWaysIncludingBinaryAndTrailing() async throws {
        var metadata = Metadata(["x-echo-initial-who": "ada"])
        metadata.addBinary([0, 1, 254, 255], forKey: "x-echo-initial-bin")
        metadata.addBinary([9, 9, 9], forKey: "x-echo-trailing-bin")
        let sent = metadata
        let reply = try await Loopback.run { try await $0.client.steeredUnary([1], metadata: sent) }
        #expect(reply.metadata[stringValues: "x-echo-initial-who"] == ["ada"])
        #expect(reply.metadata[binaryValues: "x-echo-initial-bin"] == [[0, 1, 254, 255]])
        #expect(reply.trailingMetadata[binaryValues: "x-echo-trailing-bin"] == [[9, 9, 9]])
    }

    @Test func statusAndSpecialMessageArriveIntact() async throws {
        let message = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"
        var metadata = Metadata(["x-fail-code": "2", "x-echo-trailing-t": "v"])
        metadata.addBinary(Array(message.utf8), forKey: "x-fail-message-bin")
        let sent = metadata
        let error = await #expect(throws: RPCError.self) {
            try await Loopback.run { try await $0.client.steeredUnary([], metadata: sent) }
        }
        #expect(error?.code == .unknown)
        #expect(error?.message == message)
        #expect(error?.metadata[stringValues: "x-echo-trailing-t"] == ["v"])
    }

    @Test func unknownServicesAndMethodsAreUnimplemented() async throws {
        try await Loopback.run { loopback in
            for method in [
                MethodDescriptor(service: "no.Such", method: "M"),
                MethodDescriptor(service: SteeredTestService.serviceName, method: "M"),
            ] {
                let error = await #expect(throws: RPCError.self) {
                    try await loopback.client.unary(
                        request: ClientRequest(message: [UInt8]()), method: method, serializer: RawBytesCoder(),
                        deserializer: RawBytesCoder())
                }
                #expect(error?.code == .unimplemented)
            }
        }
    }

    @Test func largeMessagesTravelBothWays() async throws {
        let request = (0..<271_828).map { UInt8(truncatingIfNeeded: $0) }
        let reply = try await Loopback.run {
            try await $0.client.steeredUnary(request, metadata: Metadata(["x-reply-size": "314159"]))
        }
        #expect(reply.message.count == 314_159)
        let echoed = try await Loopback.run { try await $0.client.steeredUnary(request) }
        #expect(echoed.message == request)
    }

    @Test func oversizedRequestsAreResourceExhausted() async throws {
        var config = NIOServerConfig.defaults
        config.maxReceiveMessageSize = 64 * 1024
        let error = await #expect(throws: RPCError.self) {
            try await Loopback.run(serverConfig: config) {
                try await $0.client.steeredUnary(Array(repeating: 0, count: 64 * 1024 + 1))
            }
        }
        #expect(error?.code == .resourceExhausted)
    }

    @Test func oversizedResponsesAreResourceExhausted() async throws {
        var config = NIOClientConfig.defaults
        config.maxReceiveMessageSize = 1000
        let error = await #expect(throws: RPCError.self) {
            try await Loopback.run(clientConfig: config) {
                try await $0.client.steeredUnary([], metadata: Metadata(["x-reply-size": "1001"]))
            }
        }
        #expect(error?.code == .resourceExhausted)
    }

    @Test func anEarlyAnswerToAClientStreamIsTheOutcome() async throws {
        let reply = try await Loopback.run(services: [EarlyAnswer()]) { loopback in
            try await loopback.client.clientStreaming(
                method: EarlyAnswer.method, serializer: RawBytesCoder(), deserializer: RawBytesCoder()
            ) { writer in
                for _ in 0..<2000 { try await writer.write(Array(repeating: 1, count: 65_536)) }
            }
        }
        #expect(reply.message == Array("first".utf8))
    }

    @Test func callsShareOneConnection() async throws {
        let peers = try await Loopback.run(services: [PeerEcho()]) { loopback in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        let reply = try await loopback.client.unary(
                            request: ClientRequest(message: [UInt8]()), method: PeerEcho.method,
                            serializer: RawBytesCoder(), deserializer: RawBytesCoder())
                        return String(decoding: reply.message, as: UTF8.self)
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
        }
        #expect(peers.count == 1)
    }
}

/// Replies with the caller's address as the server sees it.
struct PeerEcho: RPCService {
    static let method = MethodDescriptor(service: "t.Peer", method: "Who")

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(Self.method, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) { _, context in
            ServerResponse(message: Array(context.remotePeer.utf8))
        }
    }
}

/// Answers a client stream after its first message, leaving the rest unread.
struct EarlyAnswer: RPCService {
    static let method = MethodDescriptor(service: "t.Early", method: "Answer")

    func registerMethods(with router: inout RPCRouter) {
        router.registerClientStreaming(Self.method, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) {
            requests, _ in
            for try await _ in requests { break }
            return ServerResponse(message: Array("first".utf8))
        }
    }
}
