import RPCCore
import RPCNIO
import RPCTestService
import Testing

/// The Swift client against stock grpcio (Python), the same cases as Tests/Peers' pytest.
@Suite("Swift client against a grpcio server", .serialized)
struct GRPCIOPeerTests {
    let raw = RawBytesCoder()

    @Test func unary() async throws {
        let reply = try await GRPCIOPeer.withClient { try await $0.steeredUnary(Array("hi".utf8)) }
        #expect(reply.message == Array("hi".utf8))
    }

    @Test func emptyUnary() async throws {
        let reply = try await GRPCIOPeer.withClient { try await $0.steeredUnary([]) }
        #expect(reply.message.isEmpty)
    }

    @Test func theThreeStreamingKinds() async throws {
        try await GRPCIOPeer.withClient { client in
            let count = try await client.serverStreaming(
                request: ClientRequest(message: [1], metadata: Metadata(["x-reply-count": "5"])),
                method: SteeredTestService.serverStream, serializer: raw, deserializer: raw
            ) { try await $0.reduce(0) { n, _ in n + 1 } }
            #expect(count == 5)
            let total = try await client.clientStreaming(
                method: SteeredTestService.clientStream, serializer: raw, deserializer: raw
            ) { writer in
                for size in [27_182, 8, 1_828, 45_904] { try await writer.write(Array(repeating: 0, count: size)) }
            }
            #expect(total.message == Array("74922".utf8))
            let sizes = try await client.bidirectionalStreaming(
                method: SteeredTestService.bidi, serializer: raw, deserializer: raw,
                requestProducer: { writer in
                    for size in [31_415, 9, 2_653, 58_979] { try await writer.write(Array(repeating: 1, count: size)) }
                },
                onResponse: { try await $0.reduce(into: [Int]()) { $0.append($1.count) } })
            #expect(sizes == [31_415, 9, 2_653, 58_979])
            let none = try await client.bidirectionalStreaming(
                method: SteeredTestService.bidi, serializer: raw, deserializer: raw,
                requestProducer: { _ in }, onResponse: { try await $0.reduce(0) { n, _ in n + 1 } })
            #expect(none == 0)
        }
    }

    @Test func statusAndSpecialMessage() async throws {
        let message = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"
        var metadata = Metadata(["x-fail-code": "2"])
        metadata.addBinary(Array(message.utf8), forKey: "x-fail-message-bin")
        let sent = metadata
        let error = await #expect(throws: RPCError.self) {
            try await GRPCIOPeer.withClient { try await $0.steeredUnary([], metadata: sent) }
        }
        #expect(error?.code == .unknown)
        #expect(error?.message == message)
    }

    @Test func metadataBothWays() async throws {
        var metadata = Metadata(["x-echo-initial-a": "test_initial_metadata_value"])
        metadata.addBinary([0xAB, 0xAB, 0xAB], forKey: "x-echo-trailing-bin")
        let sent = metadata
        let reply = try await GRPCIOPeer.withClient { try await $0.steeredUnary([1], metadata: sent) }
        #expect(reply.metadata[stringValues: "x-echo-initial-a"] == ["test_initial_metadata_value"])
        #expect(reply.trailingMetadata[binaryValues: "x-echo-trailing-bin"] == [[0xAB, 0xAB, 0xAB]])
    }

    @Test func timeoutOnASleepingServer() async throws {
        let error = await #expect(throws: RPCError.self) {
            try await GRPCIOPeer.withClient {
                try await $0.steeredUnary([], metadata: Metadata(["x-sleep-ms": "5000"]), timeout: .milliseconds(200))
            }
        }
        #expect(error?.code == .deadlineExceeded)
    }

    @Test func cancelAfterBeginAndAfterFirstResponse() async throws {
        try await GRPCIOPeer.withClient { client in
            let raw = RawBytesCoder()
            let afterBegin = Task {
                try await client.clientStreaming(
                    method: SteeredTestService.clientStream, serializer: raw, deserializer: raw
                ) { _ in
                    try await Task.sleep(for: .seconds(30))
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            afterBegin.cancel()
            let first = await #expect(throws: (any Error).self) { try await afterBegin.value }
            #expect((first as? RPCError)?.code == .cancelled || first is CancellationError)

            let firstReply = try await client.bidirectionalStreaming(
                method: SteeredTestService.bidi, serializer: raw, deserializer: raw,
                requestProducer: { writer in
                    try await writer.write([1])
                    try await Task.sleep(for: .seconds(30))
                },
                onResponse: { responses in
                    for try await message in responses { return message }
                    return []
                })
            #expect(firstReply == [1])
            #expect(try await client.steeredUnary([2]).message == [2], "the connection survives")
        }
    }

    @Test func unknownMethodAndService() async throws {
        try await GRPCIOPeer.withClient { client in
            for method in [
                MethodDescriptor(service: SteeredTestService.serviceName, method: "Nope"),
                MethodDescriptor(service: "no.Such", method: "Unary"),
            ] {
                let error = await #expect(throws: RPCError.self) {
                    try await client.unary(
                        request: ClientRequest(message: [UInt8]()), method: method, serializer: raw, deserializer: raw)
                }
                #expect(error?.code == .unimplemented)
            }
        }
    }

    @Test func oversizedBothWays() async throws {
        var config = NIOClientConfig.defaults
        config.maxReceiveMessageSize = 100_000
        try await GRPCIOPeer.withClient(config: config) { client in
            let tooBigForUs = await #expect(throws: RPCError.self) {
                try await client.steeredUnary([], metadata: Metadata(["x-reply-size": "100001"]))
            }
            #expect(tooBigForUs?.code == .resourceExhausted)
            let tooBigForThem = await #expect(throws: RPCError.self) {
                try await client.steeredUnary(Array(repeating: 0, count: 4 * 1024 * 1024 + 1))
            }
            #expect(tooBigForThem?.code == .resourceExhausted)
        }
    }

    @Test func largeMessagesBothWays() async throws {
        let reply = try await GRPCIOPeer.withClient {
            try await $0.steeredUnary(
                Array(repeating: 7, count: 271_828), metadata: Metadata(["x-reply-size": "314159"]))
        }
        #expect(reply.message.count == 314_159)
    }
}
