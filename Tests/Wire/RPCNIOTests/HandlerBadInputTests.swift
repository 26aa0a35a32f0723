import CNghttp2
import NIOCore
import NIOEmbedded
@testable import RPCNIO
import RPCCore
import RPCTestService
import Testing

@Suite("Server connection handler: bad input")
struct HandlerBadInputTests {
    @Test func answersGarbageInsteadOfAPrefaceWithGoAway() async throws {
        let server = try await EmbeddedServer()
        try await server.sendRaw(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try await server.channel.closeFuture.isClosedOrClosing(server.channel))
        try await server.finish()
    }

    @Test func answersAMalformedFrameWithGoAwayProtocolError() async throws {
        let server = try await EmbeddedServer()
        try await server.pump()
        // A DATA frame on stream 0 is a connection error (RFC 9113 §6.1).
        try await server.sendRaw([0, 0, 1, 0x0, 0x0, 0, 0, 0, 0, 0xAA])
        #expect(server.client.goAway?.errorCode == 0x1)
        try await server.finish()
    }

    @Test func answersAHeaderListOverTheLimitWithResourceExhausted() async throws {
        var config = NIOServerConfig.defaults
        config.http2.maxHeaderListSize = 1024
        let server = try await EmbeddedServer(config: config)
        try await server.serving {
            let id = server.client.request(
                path: steeredUnaryPath, headers: [("x-big", String(repeating: "v", count: 1200))], body: grpcMessage([])
            )
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 8)
            #expect(server.client.goAway == nil, "one stream over the limit is not a flood")
        }
        try await server.finish()
    }

    @Test func closesTheConnectionOnAHeaderFlood() async throws {
        var config = NIOServerConfig.defaults
        config.http2.maxHeaderListSize = 1024
        let server = try await EmbeddedServer(config: config)
        let flood = (0..<40).map { ("x-flood-\($0)", String(repeating: "f", count: 200)) }
        server.client.request(path: steeredUnaryPath, headers: flood, body: grpcMessage([]))
        try await server.exchange { server.client.goAway != nil }
        #expect(server.client.goAway?.errorCode == 0xB, "ENHANCE_YOUR_CALM")
        try await server.finish()
    }

    @Test func answersACompressedFlagWithoutEncodingWithInternal() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(path: steeredUnaryPath, body: [1, 0, 0, 0, 1, 0x55])
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 13)
        }
        try await server.finish()
    }

    @Test func answersATruncatedMessageWithInternal() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(path: steeredUnaryPath, body: [0, 0, 0, 0, 10, 1, 2])
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 13)
        }
        try await server.finish()
    }

    @Test func answersAnInvalidBinaryHeaderWithInternal() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(
                path: steeredUnaryPath, headers: [("x-bad-bin", "@@@")], body: grpcMessage([]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 13)
        }
        try await server.finish()
    }

    @Test func answersAMalformedTimeoutWithInternal() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(
                path: steeredUnaryPath, headers: [("grpc-timeout", "soon")], body: grpcMessage([]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 13)
        }
        try await server.finish()
    }

    @Test func answersGETWith405() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(path: steeredUnaryPath, method: "GET")
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.header(":status") == "405")
        }
        try await server.finish()
    }

    @Test func refusesStreamsOverTheConcurrencyLimit() async throws {
        var config = NIOServerConfig.defaults
        config.http2.maxConcurrentStreams = 4
        let server = try await EmbeddedServer(config: config)
        try await server.serving {
            // Sent before the client has seen the server's SETTINGS, so it does not hold back.
            let ids = (0..<8).map { _ in
                server.client.request(path: steeredUnaryPath, headers: [("x-sleep-ms", "50")], body: grpcMessage([1]))
            }
            try await server.exchange { ids.allSatisfy { server.client.streams[$0]?.isClosed == true } }
            let refused = ids.filter { server.client.streams[$0]?.resetCode == 0x7 }
            let served = ids.filter { server.client.streams[$0]?.grpcStatus == 0 }
            #expect(refused.count == 4, "REFUSED_STREAM beyond the limit")
            #expect(served.count == 4)
        }
        try await server.finish()
    }

    @Test func closesTheConnectionOnRapidResets() async throws {
        var config = NIOServerConfig.defaults
        config.resetRateLimit = ResetRateLimit(burst: 20, perSecond: 1)
        let server = try await EmbeddedServer(config: config)
        try await server.serving {
            for _ in 0..<60 where server.client.goAway == nil {
                let id = server.client.request(path: steeredUnaryPath, body: grpcMessage([]), end: false)
                try await server.pump()
                server.client.reset(id)
                try await server.pump()
            }
            try await server.exchange { server.client.goAway != nil }
            // nghttp2's limiter (Debian's backport of the 1.57 fix) tears down with INTERNAL_ERROR.
            #expect(server.client.goAway != nil)
            #expect(!server.channel.isActive)
        }
        try await server.finish()
    }
}

extension EventLoopFuture where Value == Void {
    /// True once the channel is closed (the future completed).
    func isClosedOrClosing(_ channel: any Channel) async throws -> Bool {
        try await self.get()
        return !channel.isActive
    }
}
