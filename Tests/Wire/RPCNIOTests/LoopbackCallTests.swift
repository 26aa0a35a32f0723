import NIOCore
import RPCCore
import RPCNIO
import RPCTestService
import Testing

@Suite("Swift client and server over loopback sockets")
struct LoopbackCallTests {
    @Test func unaryEchoes() async throws {
        let reply = try await Loopback.run { try await $0.client.steeredUnary(Array("hello".utf8)) }
        #expect(reply.message == Array("hello".utf8))
    }

    @Test func serverStreamingSendsTheRequestedCount() async throws {
        let count = try await Loopback.run { loopback in
            try await loopback.client.serverStreaming(
                request: ClientRequest(message: [1, 2, 3], metadata: Metadata(["x-reply-count": "7"])),
                method: SteeredTestService.serverStream, serializer: RawBytesCoder(), deserializer: RawBytesCoder()
            ) { responses in
                var count = 0
                for try await message in responses {
                    #expect(message == [1, 2, 3])
                    count += 1
                }
                return count
            }
        }
        #expect(count == 7)
    }

    @Test func clientStreamingAddsUpTheRequests() async throws {
        let reply = try await Loopback.run { loopback in
            try await loopback.client.clientStreaming(
                method: SteeredTestService.clientStream, serializer: RawBytesCoder(), deserializer: RawBytesCoder()
            ) { writer in
                for size in [1, 10, 100, 300_000] { try await writer.write([UInt8](repeating: 7, count: size)) }
            }
        }
        #expect(String(decoding: reply.message, as: UTF8.self) == "300111")
    }

    @Test func bidirectionalStreamingPingPongs() async throws {
        let echoed = try await Loopback.run { loopback in
            try await loopback.client.bidirectionalStreaming(
                method: SteeredTestService.bidi, serializer: RawBytesCoder(), deserializer: RawBytesCoder(),
                requestProducer: { writer in
                    for i in 0..<5 { try await writer.write([UInt8](repeating: UInt8(i), count: i + 1)) }
                },
                onResponse: { responses in
                    var sizes: [Int] = []
                    for try await message in responses { sizes.append(message.count) }
                    return sizes
                })
        }
        #expect(echoed == [1, 2, 3, 4, 5])
    }
}
