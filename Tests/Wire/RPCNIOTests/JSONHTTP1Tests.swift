import Foundation
import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import RPCTestService
import Testing

/// A transport serving gRPC and JSON on one port (127.0.0.1, a free one), for one test.
struct JSONServer {
    let transport: NIOServerTransport
    let port: Int

    static func run<R: Sendable>(
        services: [any RPCService] = [SteeredTestService()],
        jsonServices: [any RPCJSONService] = [SteeredTestService()],
        config: NIOServerConfig = .defaults, _ body: @Sendable (JSONServer) async throws -> R
    ) async throws -> R {
        let router = RPCRouter(services: services, jsonServices: jsonServices)
        let transport = NIOServerTransport(host: "127.0.0.1", port: 0, config: config, jsonRoutes: router.jsonRoutes)
        let server = GRPCServer(transport: transport, router: router)
        return try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask {
                try await server.serve(); return nil
            }
            let port = try await transport.listeningAddress().port!
            do {
                let result = try await body(JSONServer(transport: transport, port: port))
                server.beginGracefulShutdown()
                try await group.waitForAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }
}

/// HTTP/JSON on HTTP/1.1 over real sockets: the steered test service's JSON face echoes
/// the body and obeys its headers (see `SteeredTestService`).
@Suite("HTTP/JSON on HTTP/1.1")
struct JSONHTTP1Tests {
    typealias Client = RawHTTP1Client

    @Test func answersTwoRequestsOnOneKeptAliveConnection() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Client.post("/v1/steered/unary", #"{"a":1}"#, headers: ["content-type: application/json"]))
            let first = try await client.responses(1)
            #expect(first.first?.status == 200)
            #expect(first.first?.header("content-type") == "application/json")
            #expect(first.first?.header("content-length") == "7")
            #expect(first.first?.text == #"{"a":1}"#)
            try await client.send(Client.post("/v1/steered/unary", #"{"b":2}"#))
            let both = try await client.responses(2)
            #expect(both.last?.text == #"{"b":2}"#)
            #expect(!client.isClosed)
            await client.close()
        }
    }

    @Test func answersPipelinedRequestsInOrder() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            // The first is the slowest: answers must still come in request order.
            try await client.send(
                Client.post("/v1/steered/unary", "\"slow\"", headers: ["x-sleep-ms: 300"])
                    + Client.post("/v1/steered/unary", "\"fast\"")
                    + Client.post("/v1/steered/nope", "{}")
                    + Client.post("/v1/steered/server_stream", "\"s\"", headers: ["x-reply-count: 2"])
                    + Client.post("/v1/steered/unary", "\"last\""))
            let responses = try await client.responses(5)
            #expect(responses.map(\.status) == [200, 200, 404, 200, 200])
            #expect(
                responses.map(\.text) == [
                    "\"slow\"", "\"fast\"", responses[2].text, "\"s\"\n\"s\"\n", "\"last\"",
                ])
            #expect(responses[2].text.hasPrefix(#"{"code":5,"status":"NOT_FOUND""#))
            await client.close()
        }
    }

    @Test func takesAnEmptyBodyAsAnEmptyRequest() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            try await client.send("POST /v1/steered/unary HTTP/1.1\r\nhost: t\r\ncontent-length: 0\r\n\r\n")
            try await client.send("POST /v1/steered/unary HTTP/1.1\r\nhost: t\r\n\r\n")
            let responses = try await client.responses(2)
            #expect(responses.map(\.status) == [200, 200])
            #expect(responses.allSatisfy { $0.body.isEmpty && $0.header("content-length") == "0" })
            await client.close()
        }
    }

    @Test func answersUnknownRoutes404AndOtherMethods405AndKeepsTheConnection() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Client.post("/v1/nothing/here", "{}"))
            try await client.send("GET /v1/steered/unary HTTP/1.1\r\nhost: t\r\n\r\n")
            try await client.send(Client.post("/glimpse.test.Steered/Unary", "{}"))  // a gRPC path is no route
            try await client.send(Client.post("/v1/steered/unary", "{}"))
            let responses = try await client.responses(4)
            #expect(responses.map(\.status) == [404, 405, 404, 200])
            #expect(responses[0].header("content-type") == "application/json")
            #expect(
                responses[0].text.hasPrefix(
                    #"{"code":5,"status":"NOT_FOUND","message":"No such route: /v1/nothing/here"#))
            #expect(responses[1].header("allow") == "POST")
            #expect(responses[1].text.hasPrefix(#"{"code":12,"status":"UNIMPLEMENTED""#))
            await client.close()
        }
    }

    @Test func answersHEADWithoutABody() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            try await client.send("HEAD /v1/steered/unary HTTP/1.1\r\nhost: t\r\n\r\n")
            try await client.waitForText { $0.hasSuffix("\r\n\r\n") }
            #expect(client.receivedText.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
            try await client.send(Client.post("/v1/steered/unary", "\"after\""))
            try await client.waitForText { $0.hasSuffix("\"after\"") }
            let text = client.receivedText
            #expect(
                text.components(separatedBy: "HTTP/1.1 ").count == 3, "two responses, the first without a body: \(text)"
            )
            #expect(text.contains("\r\n\r\nHTTP/1.1 200 OK\r\n"))
            await client.close()
        }
    }

    @Test func answersErrorsWithTheirStatusAndMetadata() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            for code in [3, 5, 7, 16, 14, 8] {
                try await client.send(
                    Client.post(
                        "/v1/steered/unary", "{}",
                        headers: ["x-fail-code: \(code)", "x-fail-message: why \(code)", "x-echo-trailing-k: v\(code)"])
                )
            }
            let responses = try await client.responses(6)
            #expect(responses.map(\.status) == [400, 404, 403, 401, 503, 429])
            #expect(responses[1].text == #"{"code":5,"status":"NOT_FOUND","message":"why 5"}"#)
            #expect(responses[3].header("x-echo-trailing-k") == "v16")
            await client.close()
        }
    }

    @Test func passesHeadersAsMetadata() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Client.post(
                    "/v1/steered/unary", "{}",
                    headers: ["X-Echo-Initial-Authorization: Bearer abc", "x-echo-trailing-n: 1"]))
            let response = try #require(try await client.responses(1).first)
            #expect(response.header("x-echo-initial-authorization") == "Bearer abc")
            #expect(response.header("x-echo-trailing-n") == "1")
            await client.close()
        }
    }

    @Test func answersABodyOverTheLimit413AndCloses() async throws {
        var config = NIOServerConfig.defaults
        config.maxReceiveMessageSize = 1000
        try await JSONServer.run(config: config) { server in
            // Announced too large: answered before the body is read.
            let announced = try await Client.connect(port: server.port)
            try await announced.send("POST /v1/steered/unary HTTP/1.1\r\nhost: t\r\ncontent-length: 5000\r\n\r\n")
            let first = try await announced.responses(1)
            #expect(first.first?.status == 413)
            #expect(first.first?.header("connection") == "close")
            #expect(first.first?.text.hasPrefix(#"{"code":8,"status":"RESOURCE_EXHAUSTED""#) == true)
            try await announced.waitUntilClosed()

            // Chunked, found too large as it arrives.
            let chunked = try await Client.connect(port: server.port)
            let chunk = String(repeating: "x", count: 600)
            try await chunked.send(
                "POST /v1/steered/unary HTTP/1.1\r\nhost: t\r\ntransfer-encoding: chunked\r\n\r\n"
                    + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n")
            #expect(try await chunked.responses(1).first?.status == 413)
            try await chunked.waitUntilClosed()

            // At the limit: fine.
            let fits = try await Client.connect(port: server.port)
            try await fits.send(Client.post("/v1/steered/unary", String(repeating: " ", count: 1000)))
            #expect(try await fits.responses(1).first?.status == 200)
            await fits.close()
        }
    }

    @Test func answersExpectContinueWith100ThenTheResponse() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            let body = "[" + String(repeating: "0,", count: 1000) + "0]"
            try await client.send(
                "POST /v1/steered/unary HTTP/1.1\r\nhost: t\r\ncontent-length: \(body.utf8.count)\r\nexpect: 100-continue\r\n\r\n"
            )
            try await client.waitForText { $0.hasPrefix("HTTP/1.1 100 Continue\r\n\r\n") }
            try await client.send(body)
            let response = try #require(try await client.responses(1).first)
            #expect(response.interim == [100])
            #expect(response.status == 200 && response.text == body)

            // Refused at once, without 100, and the connection closes (the body may follow or not).
            try await client.send(
                "POST /v1/nowhere HTTP/1.1\r\nhost: t\r\ncontent-length: 10\r\nexpect: 100-continue\r\n\r\n")
            let refused = try await client.responses(2)
            #expect(refused.last?.status == 404 && refused.last?.interim == [])
            try await client.waitUntilClosed()
        }
    }

    @Test func streamsNewlineDelimitedJSONChunked() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Client.post(
                    "/v1/steered/server_stream", #"{"n":1}"#, headers: ["x-reply-count: 3", "x-echo-initial-a: b"]))
            try await client.send(
                Client.post(
                    "/v1/steered/server_stream", "{}",
                    headers: ["x-reply-count: 3", "x-fail-code: 10", "x-fail-after: 2", "x-fail-message: stop"]))
            try await client.send(Client.post("/v1/steered/server_stream", "{}", headers: ["x-fail-code: 7"]))
            try await client.send(Client.post("/v1/steered/server_stream", "{}", headers: ["x-reply-count: 0"]))
            let responses = try await client.responses(4)
            #expect(responses[0].status == 200)
            #expect(responses[0].chunked)
            #expect(responses[0].header("content-type") == "application/x-ndjson")
            #expect(responses[0].header("x-echo-initial-a") == "b")
            #expect(responses[0].lines == [#"{"n":1}"#, #"{"n":1}"#, #"{"n":1}"#, ""])
            #expect(responses[1].status == 200)
            #expect(
                responses[1].lines == ["{}", "{}", #"{"error":{"code":10,"status":"ABORTED","message":"stop"}}"#, ""])
            #expect(responses[2].status == 403 && responses[2].header("content-type") == "application/json")
            #expect(responses[3].status == 200 && responses[3].body.isEmpty)
            await client.close()
        }
    }

    @Test func sendsEachStreamedLineAsItIsWritten() async throws {
        let probe = CancellationProbe()
        try await JSONServer.run(services: [probe], jsonServices: [probe]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Client.post("/v1/probe/wait_streaming", #"{"first":true}"#))
            // The call is still running: its first line is already here.
            try await client.waitForText { $0.contains("{\"first\":true}\n") }
            await probe.started.wait()
            #expect(try await client.responses(0).isEmpty)
            // Closing the connection cancels the call.
            await client.close()
            await probe.cancelled.wait()
        }
    }

    @Test func aClosedConnectionCancelsAUnaryCall() async throws {
        let probe = CancellationProbe()
        try await JSONServer.run(services: [probe], jsonServices: [probe]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Client.post("/v1/probe/wait", ""))
            await probe.started.wait()
            await client.close()
            await probe.cancelled.wait()
        }
    }

    @Test func answersAnExpiredDeadline504() async throws {
        let probe = CancellationProbe()
        try await JSONServer.run(services: [probe], jsonServices: [probe]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Client.post("/v1/probe/wait", "", headers: ["grpc-timeout: 100m"]))
            let response = try #require(try await client.responses(1).first)
            #expect(response.status == 504)
            #expect(response.text == #"{"code":4,"status":"DEADLINE_EXCEEDED","message":"Deadline exceeded"}"#)
            await probe.cancelled.wait()
            // The connection goes on.
            try await client.send(Client.post("/v1/probe/wait", "", headers: ["grpc-timeout: 1m"]))
            #expect(try await client.responses(2).last?.status == 504)
            await client.close()
        }
    }

    @Test func closesWhenTheClientAsks() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Client.post("/v1/steered/unary", "1", headers: ["connection: close"]))
            let response = try #require(try await client.responses(1).first)
            #expect(response.header("connection") == "close")
            try await client.waitUntilClosed()

            let old = try await Client.connect(port: server.port)
            try await old.send("POST /v1/steered/unary HTTP/1.0\r\ncontent-length: 1\r\n\r\n2")
            #expect(try await old.responses(1).first?.text == "2")
            try await old.waitUntilClosed()
        }
    }

    @Test func servesGRPCOnTheSamePort() async throws {
        try await JSONServer.run { server in
            let json = try await Client.connect(port: server.port)
            try await json.send(Client.post("/v1/steered/unary", "\"json\""))
            let grpc = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: server.port))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await grpc.run() }
                let reply = try await grpc.steeredUnary([1, 2, 3])
                #expect(reply.message == [1, 2, 3])
                grpc.beginGracefulShutdown()
                try await group.waitForAll()
            }
            #expect(try await json.responses(1).first?.text == "\"json\"")
            await json.close()
        }
    }

    @Test func aGracefulShutdownClosesIdleConnectionsAndFinishesBusyOnes() async throws {
        try await JSONServer.run { server in
            let idle = try await Client.connect(port: server.port)
            try await idle.send(Client.post("/v1/steered/unary", "1"))
            _ = try await idle.responses(1)
            let busy = try await Client.connect(port: server.port)
            try await busy.send(Client.post("/v1/steered/unary", "2", headers: ["x-sleep-ms: 300"]))
            try await Task.sleep(for: .milliseconds(50))
            server.transport.beginGracefulShutdown()
            try await idle.waitUntilClosed()
            let answered = try #require(try await busy.responses(1).first)
            #expect(answered.text == "2")
            #expect(answered.header("connection") == "close")
            try await busy.waitUntilClosed()
        }
    }
}
