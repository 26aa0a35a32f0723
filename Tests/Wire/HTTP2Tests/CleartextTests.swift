import Foundation
import HTTP2
import Testing

/// h2c with prior knowledge, through curl (`--http2-prior-knowledge`).
@Suite(.timeLimit(.minutes(2)))
struct CleartextTests {
    @Test func pushLikePostReachesTheHandlerAndItsAnswerComesBack() async throws {
        try await withServer { server in
            let body = #"{"aps":{"timestamp":1767261600,"event":"update","content-state":{"score":3}}}"#
            let response = try await Peers.curl([
                "--http2-prior-knowledge", "-X", "POST",
                "-H", "apns-push-type: liveactivity", "-H", "apns-topic: com.example.app.push-type.liveactivity",
                "-H", "apns-priority: 10", "-H", "Authorization: bearer eyJhbGciOiJFUzI1NiJ9.e30.sig",
                "-H", "content-type: application/json", "--data-binary", body,
                "http://127.0.0.1:\(server.port)/3/device/abc123",
            ])
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.httpVersion == "2")
            #expect(response.status == 200)
            #expect(response.header("apns-id") == "6E0F0E6A-7B1B-4A3A-9C1F-2D8E7A5B4C3D")
            #expect(response.header("x-echo-count") != nil)  // sent as X-Echo-Count: lowercased
            #expect(response.header("content-length") == String(response.body.count))

            let echo = try JSONDecoder().decode(Echo.self, from: Data(response.body))
            #expect(echo.method == "POST")
            #expect(echo.path == "/3/device/abc123")
            #expect(echo.authority == "127.0.0.1:\(server.port)")
            #expect(echo.scheme == "http")
            #expect(echo.body == body)
            #expect(!echo.bodyTooLarge && !echo.tls && echo.alpn == nil)
            #expect(echo.peerHost == "127.0.0.1")
            // Lowercase names, in the order curl sent them.
            let names = echo.headers.map { $0[0] }
            #expect(names.allSatisfy { $0 == $0.lowercased() })
            let apns = names.filter { $0.hasPrefix("apns-") || $0 == "authorization" }
            #expect(apns == ["apns-push-type", "apns-topic", "apns-priority", "authorization"])
            #expect(echo.header("authorization") == "bearer eyJhbGciOiJFUzI1NiJ9.e30.sig")
            #expect(echo.header("content-length") == String(body.utf8.count))
        }
    }

    @Test func unknownPathIs404WithAReason() async throws {
        try await withServer { server in
            let response = try await Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/nowhere"])
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.status == 404)
            #expect(response.text == #"{"reason":"BadPath"}"#)
            #expect(response.header("content-type") == "application/json")
        }
    }

    @Test func aThrowingHandlerIs500WithAnEmptyBody() async throws {
        try await withServer { server in
            let response = try await Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/throw"])
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.status == 500)
            #expect(response.body.isEmpty)
        }
    }

    @Test func aResponseHTTP2ForbidsIs500Instead() async throws {
        try await withServer { server in
            let response = try await Peers.curl(
                ["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/forbidden-header"])
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.status == 500)
            #expect(response.header("connection") == nil)
            #expect(response.body.isEmpty)
        }
    }

    @Test func headAnd204GoOutWithoutABody() async throws {
        try await withServer { server in
            let head = try await Peers.h2Peer("request", port: server.port, ["--method", "HEAD", "--path", "/echo"])
            #expect(head["status"] as? Int == 200)
            #expect(head["ended"] as? Bool == true)
            #expect(head["body"] as? String == "")
            let headers = try #require(head["headers"] as? [[String]])
            let length = try #require(headers.first { $0[0] == "content-length" }?[1])
            #expect(Int(length) ?? 0 > 0)  // what a GET would carry

            let noContent = try await Peers.curl([
                "--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/no-content",
            ])
            #expect(noContent.exitCode == 0, "\(noContent.stderr)")
            #expect(noContent.status == 204)
            #expect(noContent.header("x-kind") == "empty")
            #expect(noContent.header("content-length") == nil)
            #expect(noContent.body.isEmpty)
        }
    }

    @Test func theHandlerLearnsOfEveryClosedConnection() async throws {
        let handler = TestHandler()
        try await withServer(handler: handler) { server in
            for _ in 0..<2 {
                let response = try await Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/echo"])
                #expect(response.status == 200)
            }
        }
        // The server has stopped: every connection is closed, and was reported once.
        let connections = handler.requests.map(\.connection.id)
        #expect(Set(connections).count == 2)
        #expect(handler.closedConnections.sorted() == connections.sorted())
    }
}
