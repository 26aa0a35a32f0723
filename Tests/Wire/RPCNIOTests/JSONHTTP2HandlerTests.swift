import CNghttp2
import NIOCore
import NIOEmbedded
@testable import RPCNIO
import RPCCore
import RPCTestService
import Testing

/// HTTP/JSON calls on an HTTP/2 connection, through the server connection handler (in
/// memory): the steered test service's JSON face echoes the body and obeys its headers.
@Suite("Server connection handler: HTTP/JSON on HTTP/2")
struct JSONHTTP2HandlerTests {
    static let unary = "/v1/steered/unary"
    static let stream = "/v1/steered/server_stream"

    func server(config: NIOServerConfig = .defaults) async throws -> EmbeddedServer {
        try await EmbeddedServer(config: config, jsonServices: [SteeredTestService()])
    }

    func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }
    func starts(_ bytes: [UInt8]?, _ prefix: String) -> Bool { text(bytes).hasPrefix(prefix) }

    @Test func answersAUnaryCallWithItsJSONAndNoTrailers() async throws {
        let server = try await server()
        try await server.serving {
            let body = Array(#"{"placement":"p1"}"#.utf8)
            let id = server.client.request(path: Self.unary, contentType: "application/json", body: body)
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.header(":status") == "200")
            #expect(record.header("content-type") == "application/json")
            #expect(record.header("content-length") == String(body.count))
            #expect(record.data == body)
            #expect(record.trailers.isEmpty && record.header("grpc-status") == nil)
            #expect(record.resetCode == nil)
        }
        try await server.finish()
    }

    @Test(arguments: [nil, "application/x-www-form-urlencoded", "text/plain"])
    func takesAnyContentTypeButGRPCAndAnEmptyBody(_ contentType: String?) async throws {
        let server = try await server()
        try await server.serving {
            let id = server.client.request(path: Self.unary, contentType: contentType, body: nil)
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.header(":status") == "200")
            #expect(server.client.streams[id]?.header("content-length") == "0")
            #expect(server.client.streams[id]?.data.isEmpty == true)
        }
        try await server.finish()
    }

    @Test func answersAnErrorWithItsHTTPStatusAndAJSONBody() async throws {
        let server = try await server()
        try await server.serving {
            let id = server.client.request(
                path: Self.unary,
                headers: [
                    ("x-fail-code", "5"), ("x-fail-message", "no widget \"w\""), ("x-echo-trailing-why", "gone"),
                ],
                contentType: "application/json",
                body: Array("{}".utf8))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.header(":status") == "404")
            #expect(record.header("content-type") == "application/json")
            #expect(text(record.data) == #"{"code":5,"status":"NOT_FOUND","message":"no widget \"w\""}"#)
            #expect(record.header("x-echo-trailing-why") == "gone", "an error's metadata travels as header fields")
        }
        try await server.finish()
    }

    @Test func passesHeadersAsMetadataAndMetadataBackAsHeaders() async throws {
        let server = try await server()
        try await server.serving {
            let id = server.client.request(
                path: Self.unary, headers: [("x-echo-initial-token", "Bearer abc"), ("x-echo-trailing-n", "2")],
                contentType: "application/json", body: Array("{}".utf8))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.header("x-echo-initial-token") == "Bearer abc")
            #expect(server.client.streams[id]?.header("x-echo-trailing-n") == "2")
        }
        try await server.finish()
    }

    @Test func answersAnUnknownRoute404AndAGet405() async throws {
        let server = try await server()
        try await server.serving {
            let unknown = server.client.request(path: "/v1/steered/nope", contentType: "application/json", body: [])
            let get = server.client.request(path: Self.unary, contentType: nil, method: "GET")
            let head = server.client.request(path: Self.unary, contentType: nil, method: "HEAD")
            let grpcOnly = server.client.request(path: "/v1/steered/bidi", contentType: "application/json", body: [])
            try await server.exchange {
                [unknown, get, head, grpcOnly].allSatisfy { server.client.streams[$0]?.isClosed == true }
            }
            #expect(server.client.streams[head]?.header(":status") == "405")
            #expect(server.client.streams[head]?.data.isEmpty == true, "a response to HEAD has no body")
            #expect(server.client.streams[head]?.closedCode == 0)
            #expect(server.client.streams[unknown]?.header(":status") == "404")
            #expect(starts(server.client.streams[unknown]?.data, #"{"code":5,"status":"NOT_FOUND","message":"#))
            #expect(server.client.streams[get]?.header(":status") == "405")
            #expect(server.client.streams[get]?.header("allow") == "POST")
            #expect(server.client.streams[grpcOnly]?.header(":status") == "404", "no JSON face for a streaming request")
        }
        try await server.finish()
    }

    @Test func leavesOtherPathsToGRPC() async throws {
        let server = try await server()
        try await server.serving {
            let id = server.client.request(path: steeredUnaryPath, contentType: "application/json", body: [])
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.header(":status") == "415")
        }
        try await server.finish()
    }

    @Test func streamsOneLinePerMessage() async throws {
        let server = try await server()
        try await server.serving {
            let id = server.client.request(
                path: Self.stream, headers: [("x-reply-count", "3")], contentType: "application/json",
                body: Array(#"{"n":1}"#.utf8))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.header(":status") == "200")
            #expect(record.header("content-type") == "application/x-ndjson")
            #expect(record.header("content-length") == nil)
            #expect(text(record.data) == "{\"n\":1}\n{\"n\":1}\n{\"n\":1}\n")
            #expect(record.trailers.isEmpty)
        }
        try await server.finish()
    }

    @Test func endsAStreamThatFailsAfterItBeganWithAnErrorLine() async throws {
        let server = try await server()
        try await server.serving {
            let id = server.client.request(
                path: Self.stream,
                headers: [
                    ("x-reply-count", "3"), ("x-fail-code", "10"), ("x-fail-after", "1"), ("x-fail-message", "lost"),
                ],
                contentType: "application/json",
                body: Array("{}".utf8))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.header(":status") == "200")
            #expect(text(record.data) == "{}\n" + #"{"error":{"code":10,"status":"ABORTED","message":"lost"}}"# + "\n")
        }
        try await server.finish()
    }

    @Test func answersAStreamThatFailsBeforeItsFirstMessageWithItsStatus() async throws {
        let server = try await server()
        try await server.serving {
            let failing = server.client.request(
                path: Self.stream, headers: [("x-fail-code", "7")], contentType: "application/json", body: [])
            let empty = server.client.request(
                path: Self.stream, headers: [("x-reply-count", "0")], contentType: "application/json", body: [])
            try await server.exchange { [failing, empty].allSatisfy { server.client.streams[$0]?.isClosed == true } }
            #expect(server.client.streams[failing]?.header(":status") == "403")
            #expect(server.client.streams[failing]?.header("content-type") == "application/json")
            #expect(server.client.streams[empty]?.header(":status") == "200")
            #expect(server.client.streams[empty]?.header("content-type") == "application/x-ndjson")
            #expect(server.client.streams[empty]?.data.isEmpty == true)
        }
        try await server.finish()
    }

    @Test func servesGRPCAndJSONOnOneConnection() async throws {
        let server = try await server()
        try await server.serving {
            let grpc = server.client.request(path: steeredUnaryPath, body: grpcMessage([1, 2, 3]))
            let json = server.client.request(
                path: Self.unary, contentType: "application/json", body: Array("[1,2,3]".utf8))
            try await server.exchange { [grpc, json].allSatisfy { server.client.streams[$0]?.isClosed == true } }
            #expect(server.client.streams[grpc]?.header("content-type") == "application/grpc")
            #expect(server.client.streams[grpc]?.data == grpcMessage([1, 2, 3]))
            #expect(server.client.streams[grpc]?.grpcStatus == 0)
            #expect(server.client.streams[json]?.header("content-type") == "application/json")
            #expect(text(server.client.streams[json]?.data) == "[1,2,3]")
        }
        try await server.finish()
    }

    @Test func readsABodyAcrossDataFramesAndGivesItsBytesBack() async throws {
        let server = try await server()
        try await server.serving {
            let body = Array(("[" + String(repeating: "1,", count: 40_000) + "1]").utf8)
            let id = server.client.request(
                path: Self.unary, contentType: "application/json", body: Array(body[..<10]), end: false)
            try await server.pump()
            server.client.send(Array(body[10..<50_000]), on: id, end: false)
            try await server.pump()
            server.client.send(Array(body[50_000...]), on: id, end: true)
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.data == body)
        }
        #expect(try await server.withHandler { $0.bufferedRequestBytes } == 0)
        #expect(try await server.withHandler { $0.receiveHeld } == 0, "every byte went back to the receive budget")
        try await server.finish()
    }

    @Test func answersABodyOverTheLimit413() async throws {
        var config = NIOServerConfig.defaults
        config.maxReceiveMessageSize = 1000
        let server = try await server(config: config)
        try await server.serving {
            let id = server.client.request(
                path: Self.unary, contentType: "application/json",
                body: Array(repeating: UInt8(ascii: " "), count: 3000))
            let after = server.client.request(path: Self.unary, contentType: "application/json", body: Array("{}".utf8))
            try await server.exchange { [id, after].allSatisfy { server.client.streams[$0]?.isClosed == true } }
            #expect(server.client.streams[id]?.header(":status") == "413")
            #expect(starts(server.client.streams[id]?.data, #"{"code":8,"status":"RESOURCE_EXHAUSTED""#))
            #expect(server.client.streams[after]?.header(":status") == "200", "the connection goes on")
        }
        #expect(try await server.withHandler { $0.receiveHeld } == 0)
        try await server.finish()
    }

    @Test func answersAnExpiredDeadline504AndCancelsTheCall() async throws {
        let probe = CancellationProbe()
        let server = try await EmbeddedServer(services: [probe], jsonServices: [probe])
        try await server.serving {
            let id = server.client.request(
                path: "/v1/probe/wait", headers: [("grpc-timeout", "100m")], contentType: "application/json", body: [])
            try await server.pump()
            await probe.started.wait()
            await server.channel.testingEventLoop.advanceTime(by: .milliseconds(150))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.header(":status") == "504")
            #expect(starts(server.client.streams[id]?.data, #"{"code":4,"status":"DEADLINE_EXCEEDED""#))
            await probe.cancelled.wait()
        }
        try await server.finish()
    }

    @Test func endsAStreamWhoseDeadlineExpiresWithAnErrorLine() async throws {
        let probe = CancellationProbe()
        let server = try await EmbeddedServer(services: [probe], jsonServices: [probe])
        try await server.serving {
            let id = server.client.request(
                path: "/v1/probe/wait_streaming", headers: [("grpc-timeout", "100m")], contentType: "application/json",
                body: Array("{}".utf8))
            try await server.pump()
            await probe.started.wait()
            try await server.exchange { server.client.streams[id]?.data.isEmpty == false }
            await server.channel.testingEventLoop.advanceTime(by: .milliseconds(150))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.header(":status") == "200")
            #expect(
                text(server.client.streams[id]?.data)
                    == "{}\n" + #"{"error":{"code":4,"status":"DEADLINE_EXCEEDED","message":"Deadline exceeded"}}"#
                    + "\n")
            await probe.cancelled.wait()
        }
        try await server.finish()
    }

    @Test func aResetStreamCancelsItsCall() async throws {
        let probe = CancellationProbe()
        let server = try await EmbeddedServer(services: [probe], jsonServices: [probe])
        try await server.serving {
            let id = server.client.request(path: "/v1/probe/wait_streaming", contentType: nil, body: [])
            try await server.pump()
            await probe.started.wait()
            server.client.reset(id)
            try await server.pump()
            await probe.cancelled.wait()
        }
        try await server.finish()
    }
}
