import Foundation
import HTTP2
import RPCNIO
import Testing

/// What a client can make the server hold: bodies past `maxRequestBody` are not kept,
/// and what is kept is bounded by the receive budget (HTTP/2 flow control).
@Suite(.timeLimit(.minutes(2)))
struct LimitsTests {
    @Test func anAnnouncedTooLargeBodyIs413AtOnce() async throws {
        try await withServer(config: HTTP2ServerConfig(maxRequestBody: 4096)) { server in
            let body = String(repeating: "x", count: 4097)
            let response = try await Peers.curl([
                "--http2-prior-knowledge", "-H", "content-type: application/json", "--data-binary", body,
                "http://127.0.0.1:\(server.port)/3/device/abc",
            ])
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.status == 413)
            #expect(response.text == #"{"reason":"PayloadTooLarge"}"#)
            let request = try #require(server.handler.requests.first)
            #expect(request.bodyTooLarge)
            #expect(request.body.isEmpty)  // content-length told: nothing was buffered

            let fits = try await Peers.curl([
                "--http2-prior-knowledge", "--data-binary", String(repeating: "x", count: 4096),
                "http://127.0.0.1:\(server.port)/3/device/abc",
            ])
            #expect(fits.status == 200)
        }
    }

    @Test func aBodyFoundTooLargeWhileArrivingIs413AndTheConnectionGoesOn() async throws {
        try await withServer(config: HTTP2ServerConfig(maxRequestBody: 8192)) { server in
            // 40,000 bytes, no content-length: several DATA frames, past the limit midway.
            let result = try await Peers.h2Peer(
                "too-large-then-ok", port: server.port,
                [
                    "--path", "/3/device/abc", "--body-size", "40000",
                ])
            let first = try #require(result["first"] as? [String: Any])
            let second = try #require(result["second"] as? [String: Any])
            #expect(first["status"] as? Int == 413)
            #expect(first["body"] as? String == #"{"reason":"PayloadTooLarge"}"#)
            #expect(second["status"] as? Int == 200)  // same connection

            let requests = server.handler.requests
            #expect(requests.count == 2)
            #expect(requests[0].bodyTooLarge && requests[0].body.count == 8192)  // the first bytes, no more
            #expect(!requests[1].bodyTooLarge && requests[1].body == Array(#"{"aps":{}}"#.utf8))
            #expect(requests[0].connection.id == requests[1].connection.id)
        }
    }

    @Test func twoHundredStreamsRunTheirHandlersAtOnceOnOneConnection() async throws {
        // Every handler waits until all 200 are running: fewer at once never finishes.
        let handler = TestHandler(barrierCount: 200)
        try await withServer(handler: handler) { server in
            let result = try await Peers.h2Peer(
                "concurrent", port: server.port, ["--path", "/barrier", "--count", "200"])
            #expect(result["opened_together"] as? Int == 200)
            #expect((result["statuses"] as? [Int]) == Array(repeating: 200, count: 200))
            #expect(Set(handler.requests.map(\.connection.id)).count == 1)
        }
    }

    @Test func heldBodiesNeverExceedTheReceiveBudget() async throws {
        // The smallest connection window HTTP/2 allows, 8 KiB bodies held by their
        // handlers: the client can send 65,535 bytes (7 bodies and most of an 8th), then
        // must wait; released, the handlers answer and the rest comes through.
        let config = HTTP2ServerConfig(
            http2: HTTP2Config(maxConcurrentStreams: 100, initialStreamWindowSize: 64 * 1024, receiveBudget: 65_535),
            maxRequestBody: 8192)
        try await withServer(config: config) { server in
            let result = try await Peers.h2Peer(
                "budget", port: server.port,
                [
                    "--path", "/hold", "--release-path", "/release", "--count", "12", "--body-size", "8192",
                ])
            let held = try #require(result["while_held"] as? [String: Any])
            #expect(held["connection_window"] as? Int == 0)
            #expect(held["unsent"] as? Int == 12 * 8192 - 65_535)
            #expect(held["answered"] as? Int == 0)
            #expect((result["statuses"] as? [Int]) == Array(repeating: 200, count: 12))
            #expect(result["release"] as? Int == 200)
        }
    }
}
