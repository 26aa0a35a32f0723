import Foundation
import HTTP2
import RPCNIO
import Testing

/// Bytes no HTTP/2 client should send: the connection is closed, or the stream reset,
/// and the server goes on serving.
@Suite(.timeLimit(.minutes(2)))
struct MalformedInputTests {
    /// After each bad connection the server still answers a good one.
    private func expectServing(_ port: Int) async throws {
        let response = try await Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(port)/echo"])
        #expect(response.status == 200, "\(response.stderr)")
    }

    @Test func anHTTP1RequestOnTheH2PortIsClosed() async throws {
        try await withServer { server in
            let reply = try await RawConnection.exchange(
                port: server.port, Array("GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            #expect(RawConnection.goAwayErrorCode(in: reply) == 0x1)  // PROTOCOL_ERROR: no HTTP/2 preface
            try await expectServing(server.port)
            #expect(server.handler.requests.count == 1)  // only the good one
        }
    }

    @Test func aMalformedFrameEndsTheConnectionWithGoAway() async throws {
        try await withServer { server in
            // SETTINGS must be a multiple of 6 bytes long: FRAME_SIZE_ERROR (0x6).
            let badSettings = RawConnection.preface + RawConnection.frame(type: 0x4, [1, 2, 3, 4, 5])
            let reply = try await RawConnection.exchange(port: server.port, badSettings)
            #expect(RawConnection.goAwayErrorCode(in: reply) == 0x6)

            // DATA on stream 0: PROTOCOL_ERROR (0x1).
            let dataOnZero =
                RawConnection.preface + RawConnection.frame(type: 0x4, [])
                + RawConnection.frame(type: 0x0, stream: 0, Array("oops".utf8))
            let second = try await RawConnection.exchange(port: server.port, dataOnZero)
            #expect(RawConnection.goAwayErrorCode(in: second) == 0x1)
            try await expectServing(server.port)
        }
    }

    @Test func randomBytesAfterThePrefaceAndOnTheTLSPortAreClosed() async throws {
        let certificates = try makeCertificates()
        try await withServer([.cleartext(port: 0), .tls(port: 0, certificates: certificates.server)]) { server in
            for length in [1, 9, 64, 4096] {
                // Arbitrary but repeatable bytes (a multiplicative sequence).
                let noise = (0..<length).map { UInt8(truncatingIfNeeded: ($0 &+ length) &* 0x9E37_79B1 >> 7) }
                _ = try await RawConnection.exchange(port: server.ports[0], RawConnection.preface + noise)
                _ = try await RawConnection.exchange(port: server.ports[1], noise)
            }
            _ = try await RawConnection.exchange(port: server.ports[1], Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            try await expectServing(server.ports[0])
            let secure = try await Peers.curl([
                "--cacert", certificates.caCertificate, "https://127.0.0.1:\(server.ports[1])/echo",
            ])
            #expect(secure.status == 200)
            #expect(server.handler.requests.count == 2)
        }
    }

    @Test func forbiddenRequestHeadersResetTheStreamOrAre400() async throws {
        try await withServer { server in
            let result = try await Peers.h2Peer("invalid-headers", port: server.port, ["--path", "/echo"])
            let upper = try #require(result["upper"] as? [String: Any])
            let connection = try #require(result["connection_specific"] as? [String: Any])
            let latin1 = try #require(result["latin1"] as? [String: Any])
            let ok = try #require(result["ok"] as? [String: Any])
            #expect(upper["reset"] as? Int == 1)  // PROTOCOL_ERROR, from nghttp2's checks
            #expect(connection["reset"] as? Int == 1)
            #expect(latin1["status"] as? Int == 400)  // valid HTTP, but not a String to hand over
            #expect(ok["status"] as? Int == 200)  // the same connection
            #expect(server.handler.requests.count == 1)
        }
    }

    @Test func aHeaderBlockOverTheLimitIs431() async throws {
        let config = HTTP2ServerConfig(
            http2: {
                var http2 = HTTP2ServerConfig.defaultHTTP2
                http2.maxHeaderListSize = 1024
                return http2
            }())
        try await withServer(config: config) { server in
            let big = try await Peers.curl([
                "--http2-prior-knowledge", "-H", "x-big: \(String(repeating: "a", count: 2000))",
                "http://127.0.0.1:\(server.port)/echo",
            ])
            #expect(big.status == 431)
            #expect(server.handler.requests.isEmpty)
            try await expectServing(server.port)
        }
    }
}
