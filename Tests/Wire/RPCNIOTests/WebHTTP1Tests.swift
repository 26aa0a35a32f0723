import Foundation
import NIOCore
import RPCCore
import Web
@testable import RPCNIO
import RPCTestService
import Testing

/// A server stream the test feeds: each message pushed is one response message, `finish`
/// ends the call OK. As JSON: `POST /v1/gate/stream` (the request is ignored).
struct GateService: RPCJSONService {
    static let method = MethodDescriptor(service: "t.Gate", method: "Stream")
    let messages = InboundQueue<[UInt8]>()
    let started = Signal()
    let cancelled = Signal()

    func send(_ text: String) { messages.push(Array(text.utf8)) }
    func finish() { messages.finish() }

    func registerMethods(with router: inout RPCRouter) { register(with: &router, format: .protobuf) }
    func registerJSONMethods(with router: inout RPCRouter) { register(with: &router, format: .json) }

    private func register(with router: inout RPCRouter, format: MessageFormat) {
        let messages = self.messages, started = self.started, cancelled = self.cancelled
        router.registerServerStreaming(
            Self.method, format: format, deserializer: RawBytesCoder(), serializer: RawBytesCoder()
        ) {
            _, writer, _ in
            started.signal()
            do {
                while let message = try await messages.next() { try await writer.write(message) }
            } catch {
                if Task.isCancelled { cancelled.signal() }
                throw error
            }
            return Metadata()
        }
    }
}

/// The browser face of HTTP/1.1 (`NIOServerConfig.web`) over real sockets: static files,
/// GET of the JSON methods, server-sent events.
@Suite("Web: the browser face on HTTP/1.1")
struct WebHTTP1Tests {
    typealias Client = RawHTTP1Client

    static let page = "<!doctype html><title>Glimpse</title><script src=\"/web/app.js\"></script>"
    static let script = "console.log(\"glimpse\")\n"
    static let files: [String: [UInt8]] = [
        "index.html": Array(page.utf8), "app.js": Array(script.utf8), "app.css": Array("body{margin:0}".utf8),
    ]
    static let scriptTag = StaticFiles(files)["app.js"]!.etag
    static let sse = "accept: text/event-stream"

    static func config(keepalive: Duration = .seconds(15)) -> NIOServerConfig {
        var config = NIOServerConfig.defaults
        config.web = WebConfig(staticFiles: StaticFiles(files), eventStreamKeepalive: keepalive)
        return config
    }

    static func request(
        _ method: String = "GET", _ target: String, headers: [String] = [], version: String = "1.1"
    ) -> String {
        var request = "\(method) \(target) HTTP/\(version)\r\nhost: test\r\n"
        for header in headers { request += header + "\r\n" }
        return request + "\r\n"
    }

    static func get(_ target: String, headers: [String] = []) -> String { request("GET", target, headers: headers) }

    /// `%`-encodes everything but unreserved characters, as `encodeURIComponent` does.
    static func query(_ json: String) -> String {
        "json=" + json.addingPercentEncoding(withAllowedCharacters: unreserved)!
    }

    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")

    static func server<R: Sendable>(
        keepalive: Duration = .seconds(15), services: [any RPCJSONService] = [SteeredTestService()],
        _ body: @Sendable (JSONServer) async throws -> R
    ) async throws -> R {
        try await JSONServer.run(services: services, jsonServices: services, config: config(keepalive: keepalive), body)
    }

    // MARK: Static files

    @Test func aTransportServesNoBrowserUnlessAsked() {
        #expect(NIOServerConfig.defaults.web == nil)
    }

    @Test func servesTheIndexAtTheRootAndFilesUnderWeb() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.get("/") + Self.get("/web/app.js") + Self.get("/web/app.css?v=3"))
            let responses = try await client.responses(3)
            #expect(responses.map(\.status) == [200, 200, 200])
            #expect(responses[0].header("content-type") == "text/html; charset=utf-8")
            #expect(responses[0].text == Self.page)
            #expect(responses[0].header("content-length") == String(Self.page.utf8.count))
            #expect(responses[1].header("content-type") == "text/javascript; charset=utf-8")
            #expect(responses[1].text == Self.script)
            #expect(responses[2].header("content-type") == "text/css; charset=utf-8")
            #expect(responses[2].text == "body{margin:0}")
            for response in responses {
                #expect(response.header("cache-control") == "no-cache")
                let tag = try #require(response.header("etag"))
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
                #expect(!response.chunked)
            }
            #expect(responses[1].header("etag") == Self.scriptTag)
            #expect(Set(responses.compactMap { $0.header("etag") }).count == 3)
            #expect(!client.isClosed)
            await client.close()
        }
    }

    @Test func theSameTagComesBackAndRevalidatesTo304() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.get("/web/app.js") + Self.get("/web/app.js"))
            let first = try await client.responses(2)
            let tag = try #require(first[0].header("etag"))
            #expect(first[1].header("etag") == tag)

            try await client.send(
                Self.get("/web/app.js", headers: ["if-none-match: \(tag)"])
                    + Self.get("/web/app.js", headers: ["If-None-Match: \"stale\", \(tag)"])
                    + Self.get("/web/app.js", headers: ["if-none-match: *"])
                    + Self.get("/web/app.js", headers: ["if-none-match: \"stale\""])
                    + Self.get("/", headers: ["if-none-match: \(tag)"])  // another file's tag
                    + Self.get("/web/app.js", headers: ["if-none-match: \"stale\"", "if-none-match: \(tag)"]))
            let responses = Array(try await client.responses(8).dropFirst(2))
            #expect(responses.map(\.status) == [304, 304, 304, 200, 200, 304])
            for response in responses where response.status == 304 {
                #expect(response.body.isEmpty)
                #expect(response.header("etag") == tag)
                #expect(response.header("cache-control") == "no-cache")
                #expect(response.header("transfer-encoding") == nil)
            }
            #expect(responses[3].text == Self.script)
            #expect(responses[4].text == Self.page)
            // The connection goes on after the 304s.
            try await client.send(Self.get("/"))
            #expect(try await client.responses(9).last?.text == Self.page)
            await client.close()
        }
    }

    @Test func answersHEADWithTheHeaderFieldsOnly() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.request("HEAD", "/web/app.js"))
            try await client.waitForText { $0.hasSuffix("\r\n\r\n") }
            let head = client.receivedText
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.lowercased().contains("content-length: \(Self.script.utf8.count)\r\n"))
            #expect(head.lowercased().contains("content-type: text/javascript; charset=utf-8\r\n"))
            #expect(head.lowercased().contains("etag: \(Self.scriptTag.lowercased())\r\n"))
            // No body: the next answer follows the blank line at once.
            try await client.send(Self.request("HEAD", "/web/missing.js") + Self.get("/?after"))
            try await client.waitForText { $0.hasSuffix(Self.page) }
            let text = client.receivedText
            let parts = text.components(separatedBy: "HTTP/1.1 ")
            #expect(parts.count == 4, "three responses: \(text)")
            #expect(parts[1].hasSuffix("\r\n\r\n") && parts[2].hasSuffix("\r\n\r\n"), "\(text)")
            #expect(parts[2].hasPrefix("404 Not Found\r\n"))
            #expect(parts[3].hasPrefix("200 OK\r\n"))
            #expect(!client.isClosed)
            await client.close()
        }
    }

    @Test func answersAnUnknownFile404AndKeepsTheConnection() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Self.get("/web/missing.js") + Self.get("/web/") + Self.get("/web/../index.html")
                    + Self.get("/web/app.js"))
            let responses = try await client.responses(4)
            #expect(responses.map(\.status) == [404, 404, 404, 200])
            #expect(responses[0].header("content-type") == "application/json")
            #expect(responses[0].text == #"{"code":5,"status":"NOT_FOUND","message":"No such file: /web/missing.js"}"#)
            #expect(!client.isClosed)
            await client.close()
        }
    }

    @Test func answersOtherMethods405WithAllow() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Client.post("/", "{\"a\":1}") + Self.request("DELETE", "/web/app.js")
                    + Self.request("PUT", "/web/missing")
                    + Self.request("OPTIONS", "/"))
            let files = try await client.responses(4)
            #expect(files.map(\.status) == [405, 405, 405, 405])
            for response in files {
                #expect(response.header("allow") == "GET, HEAD")
                #expect(response.text.hasPrefix(#"{"code":12,"status":"UNIMPLEMENTED""#))
            }
            // A JSON route takes GET now as well as POST.
            try await client.send(Self.request("DELETE", "/v1/steered/unary") + Self.get("/"))
            let after = try await client.responses(6)
            #expect(after[4].status == 405 && after[4].header("allow") == "GET, POST")
            #expect(after[5].status == 200 && after[5].text == Self.page)
            await client.close()
        }
    }

    @Test func keepsAliveAndAnswersPipelinedGETsInOrder() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Self.get("/")
                    + Self.get("/v1/steered/unary?json=%22slow%22", headers: ["x-sleep-ms: 200"])
                    + Self.get("/web/app.js", headers: ["if-none-match: \(Self.scriptTag)"])
                    + Self.get("/v1/steered/unary?\(Self.query(#"{"n":1}"#))", headers: [Self.sse])
                    + Client.post("/v1/steered/unary", "\"post\"")
                    + Self.get("/web/nothing")
                    + Self.get("/v1/steered/server_stream?json=%22s%22", headers: [Self.sse, "x-reply-count: 2"])
                    + Self.get("/v1/steered/server_stream?json=%22t%22", headers: ["x-reply-count: 2"])
                    + Self.get("/web/app.js"))
            let responses = try await client.responses(9)
            #expect(responses.map(\.status) == [200, 200, 304, 200, 200, 404, 200, 200, 200])
            #expect(responses[0].text == Self.page)
            #expect(responses[1].text == "\"slow\"" && responses[1].header("content-type") == "application/json")
            #expect(responses[3].header("content-type") == "text/event-stream")
            #expect(responses[3].text == "data: {\"n\":1}\n\n")
            #expect(responses[4].text == "\"post\"" && responses[4].header("content-type") == "application/json")
            #expect(responses[6].text == "data: \"s\"\n\ndata: \"s\"\n\n")
            #expect(
                responses[7].header("content-type") == "application/x-ndjson" && responses[7].text == "\"t\"\n\"t\"\n")
            #expect(responses[8].text == Self.script)
            #expect(!client.isClosed)
            await client.close()
        }
    }

    @Test func anHTTP10RequestIsAnsweredAndClosed() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.request("GET", "/", version: "1.0"))
            let response = try #require(try await client.responses(1).first)
            #expect(response.status == 200 && response.text == Self.page)
            #expect(response.header("connection") == "close")
            try await client.waitUntilClosed()

            // An event stream over HTTP/1.0: no chunked encoding, the body ends with the connection.
            let old = try await Client.connect(port: server.port)
            try await old.send(
                Self.request(
                    "GET", "/v1/steered/unary?json=1", headers: [Self.sse, "connection: keep-alive"], version: "1.0"))
            try await old.waitUntilClosed()
            let event = try #require(try await old.responses(1).first)
            #expect(event.status == 200 && !event.chunked)
            #expect(event.header("content-type") == "text/event-stream")
            #expect(event.text == "data: 1\n\n")
        }
    }

    // MARK: GET of the JSON methods

    @Test func runsAMethodOnGETWithTheJSONParameterAsItsRequest() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Self.get("/v1/steered/unary?\(Self.query(#"{"a":"b c+d/é"}"#))")
                    + Self.get("/v1/steered/unary?x=1&json=%5B1%2C2%5D&json=ignored")
                    + Self.get("/v1/steered/unary")
                    + Self.get("/v1/steered/unary?json=%7B%zz", headers: ["x-fail-code: 5"])
                    + Self.get("/v1/steered/unary?json=%7B%7D", headers: ["x-fail-code: 5", "x-fail-message: gone"])
                    + Self.get("/v1/nothing/here?json=%7B%7D")
                    + Self.get("/v1/steered/server_stream?json=%7B%7D", headers: ["x-reply-count: 2"]))
            let responses = try await client.responses(7)
            #expect(responses.map(\.status) == [200, 200, 200, 400, 404, 404, 200])
            #expect(responses[0].text == #"{"a":"b c+d/é"}"#)
            #expect(responses[0].header("content-type") == "application/json")
            #expect(responses[1].text == "[1,2]")
            #expect(responses[2].body.isEmpty && responses[2].header("content-length") == "0")
            #expect(responses[3].text.hasPrefix(#"{"code":3,"status":"INVALID_ARGUMENT""#))
            #expect(responses[3].header("content-type") == "application/json")
            #expect(responses[4].text == #"{"code":5,"status":"NOT_FOUND","message":"gone"}"#)
            #expect(responses[5].text.hasPrefix(#"{"code":5,"status":"NOT_FOUND","message":"No such route"#))
            #expect(responses[6].lines == ["{}", "{}", ""])
            await client.close()
        }
    }

    // MARK: Server-sent events

    @Test func aUnaryCallIsOneEventThenTheEnd() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Self.get("/v1/steered/unary?\(Self.query(#"{"a":1}"#))", headers: ["Accept: text/event-stream"])
                    + Client.post(
                        "/v1/steered/unary", #"{"b":2}"#, headers: ["accept: application/json, text/event-stream"])
                    + Client.post("/v1/steered/unary", #"{"c":3}"#))
            let responses = try await client.responses(3)
            for response in responses.prefix(2) {
                #expect(response.status == 200)
                #expect(response.header("content-type") == "text/event-stream")
                #expect(response.header("cache-control") == "no-cache")
                #expect(response.chunked)
            }
            #expect(responses[0].text == "data: {\"a\":1}\n\n")
            #expect(responses[1].text == "data: {\"b\":2}\n\n")
            // The next request on the connection is no event stream unless it asks.
            #expect(responses[2].header("content-type") == "application/json" && responses[2].text == #"{"c":3}"#)
            await client.close()
        }
    }

    @Test func theHeadGoesOutAtTheStartOfTheCallAndClosingCancelsIt() async throws {
        let probe = CancellationProbe()
        try await Self.server(services: [probe]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.get("/v1/probe/wait", headers: [Self.sse]))
            await probe.started.wait()
            try await client.waitForText { $0.contains("\r\n\r\n") }
            #expect(client.receivedText.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(client.receivedText.lowercased().contains("content-type: text/event-stream\r\n"))
            #expect(!client.receivedText.contains("data:"))
            await client.close()
            await probe.cancelled.wait()
        }
    }

    @Test func aServerStreamIsOneEventPerMessageEachFlushedAsWritten() async throws {
        let gate = GateService()
        try await Self.server(services: [gate]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.get("/v1/gate/stream", headers: [Self.sse]))
            await gate.started.wait()
            try await client.waitForText { $0.lowercased().contains("content-type: text/event-stream\r\n") }
            gate.send(#"{"n":1}"#)
            try await client.waitForText { $0.contains("data: {\"n\":1}\n\n") }
            #expect(try await client.responses(0).isEmpty, "the stream goes on")
            gate.send(#"{"n":2}"#)
            try await client.waitForText { $0.contains("data: {\"n\":2}\n\n") }
            gate.send("{\n\"n\": 3\n}")  // a message with line breaks: a data line each
            gate.finish()
            let response = try #require(try await client.responses(1).first)
            #expect(response.status == 200 && response.chunked)
            #expect(response.text == "data: {\"n\":1}\n\ndata: {\"n\":2}\n\ndata: {\ndata: \"n\": 3\ndata: }\n\n")
            // The connection is kept for the next request.
            try await client.send(Self.get("/"))
            #expect(try await client.responses(2).last?.text == Self.page)
            await client.close()
        }
    }

    @Test func aFailedCallEndsWithTheErrorEvent() async throws {
        try await Self.server { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Self.get(
                    "/v1/steered/unary?json=%7B%7D",
                    headers: [Self.sse, "x-fail-code: 5", "x-fail-message: No placement 9"])
                    + Self.get(
                        "/v1/steered/server_stream?json=%22s%22",
                        headers: [
                            Self.sse, "x-reply-count: 3", "x-fail-after: 1", "x-fail-code: 10", "x-fail-message: stop",
                        ])
                    + Self.get("/v1/steered/server_stream?json=1", headers: [Self.sse, "x-fail-code: 7"])
                    + Self.get("/v1/steered/server_stream?json=1", headers: [Self.sse, "x-reply-count: 0"])
                    + Self.get("/v1/steered/unary?json=%7B%7D", headers: [Self.sse]))
            let responses = try await client.responses(5)
            #expect(responses.map(\.status) == [200, 200, 200, 200, 200])
            #expect(responses.allSatisfy { $0.header("content-type") == "text/event-stream" })
            #expect(
                responses[0].text
                    == "event: error\ndata: {\"code\":5,\"status\":\"NOT_FOUND\",\"message\":\"No placement 9\"}\n\n")
            #expect(
                responses[1].text
                    == "data: \"s\"\n\nevent: error\ndata: {\"code\":10,\"status\":\"ABORTED\",\"message\":\"stop\"}\n\n"
            )
            #expect(responses[2].text.hasPrefix("event: error\ndata: {\"code\":7,\"status\":\"PERMISSION_DENIED\""))
            #expect(responses[3].body.isEmpty, "a stream without messages: the head, then the end")
            #expect(responses[4].text == "data: {}\n\n")
            await client.close()
        }
    }

    @Test func anExpiredDeadlineIsAnErrorEvent() async throws {
        let probe = CancellationProbe()
        try await Self.server(services: [probe]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.get("/v1/probe/wait", headers: [Self.sse, "grpc-timeout: 100m"]))
            let response = try #require(try await client.responses(1).first)
            #expect(response.status == 200)
            #expect(
                response.text
                    == "event: error\ndata: {\"code\":4,\"status\":\"DEADLINE_EXCEEDED\",\"message\":\"Deadline exceeded\"}\n\n"
            )
            await probe.cancelled.wait()
            await client.close()
        }
    }

    @Test func anIdleStreamSaysKeepalive() async throws {
        let gate = GateService()
        try await Self.server(keepalive: .milliseconds(50), services: [gate, SteeredTestService()]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.get("/v1/gate/stream", headers: [Self.sse]))
            await gate.started.wait()
            // The handler has sent nothing: a comment comes first.
            try await client.waitForText { $0.contains(": keepalive\n\n") }
            #expect(!client.receivedText.contains("data:"))
            gate.send("1")
            try await client.waitForText { $0.contains("data: 1\n\n") }
            // Idle again after the message: more comments.
            try await client.waitForText { text in
                text.range(of: "data: 1\n\n").map { text[$0.upperBound...].contains(": keepalive\n\n") } ?? false
            }
            gate.finish()
            let response = try #require(try await client.responses(1).first)
            let events = response.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
            #expect(events.filter { $0 == "data: 1" }.count == 1)
            #expect(events.allSatisfy { $0 == "data: 1" || $0 == ": keepalive" }, "\(response.text)")
            // After the end, nothing more: the next response parses cleanly.
            try await client.send(Client.post("/v1/steered/unary", "\"next\""))
            let both = try await client.responses(2)
            #expect(both.count == 2 && both[1].text == "\"next\"", "\(client.receivedText)")
            await client.close()
        }
    }

    @Test func closingTheConnectionCancelsAStream() async throws {
        let probe = CancellationProbe()
        try await Self.server(keepalive: .milliseconds(20), services: [probe]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.get("/v1/probe/wait_streaming?json=%22x%22", headers: [Self.sse]))
            try await client.waitForText { $0.contains("data: \"x\"\n\n") }
            await probe.started.wait()
            try await client.waitForText { $0.contains(": keepalive\n\n") }
            await client.close()
            await probe.cancelled.wait()
        }
    }

    @Test func aGracefulShutdownEndsAfterTheStreamInProgress() async throws {
        let gate = GateService()
        try await Self.server(services: [gate]) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(Self.get("/v1/gate/stream", headers: [Self.sse]))
            await gate.started.wait()
            server.transport.beginGracefulShutdown()
            gate.send("last")
            gate.finish()
            let response = try #require(try await client.responses(1).first)
            #expect(response.text == "data: last\n\n")
            try await client.waitUntilClosed()
        }
    }

    // MARK: Without the web face, and beside it

    @Test func withoutWebConfigGETIsRefusedAsBefore() async throws {
        try await JSONServer.run { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Self.get("/") + Self.get("/web/app.js") + Self.get("/v1/steered/unary?json=%7B%7D", headers: [Self.sse])
                    + Client.post("/v1/steered/unary", "\"p\"", headers: [Self.sse]))
            let responses = try await client.responses(4)
            #expect(responses.map(\.status) == [404, 404, 405, 200])
            #expect(responses[0].text.hasPrefix(#"{"code":5,"status":"NOT_FOUND","message":"No such route: /"#))
            #expect(responses[2].header("allow") == "POST")
            #expect(responses[2].text.hasPrefix(#"{"code":12,"status":"UNIMPLEMENTED""#))
            // No event stream either: the plain JSON answer.
            #expect(responses[3].header("content-type") == "application/json" && responses[3].text == "\"p\"")
            await client.close()
        }
    }

    @Test func aServerWithoutJSONRoutesServesItsFilesAndGRPC() async throws {
        try await JSONServer.run(jsonServices: [], config: Self.config()) { server in
            let client = try await Client.connect(port: server.port)
            try await client.send(
                Self.get("/") + Self.get("/v1/steered/unary") + Client.post("/v1/steered/unary", "{}"))
            let responses = try await client.responses(3)
            #expect(responses.map(\.status) == [200, 404, 404])
            #expect(responses[0].text == Self.page)
            let grpc = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: server.port))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await grpc.run() }
                #expect(try await grpc.steeredUnary([7]).message == [7])
                grpc.beginGracefulShutdown()
                try await group.waitForAll()
            }
            await client.close()
        }
    }

    @Test func gRPCOnTheSamePortIsUnchanged() async throws {
        try await Self.server { server in
            let grpc = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: server.port))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await grpc.run() }
                #expect(try await grpc.steeredUnary([1, 2, 3]).message == [1, 2, 3])
                grpc.beginGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }
}

/// HTTP/2 (h2c) is untouched by the web face: no files, no GET, no event streams; the same
/// requests get the same answers with and without it.
@Suite("Web: HTTP/2 unchanged")
struct WebHTTP2Tests {
    struct Answer: Equatable {
        var status: String?
        var contentType: String?
        var data: [UInt8]
    }

    func answers(config: NIOServerConfig) async throws -> [Answer] {
        let server = try await EmbeddedServer(config: config, jsonServices: [SteeredTestService()])
        let records = try await server.serving {
            let sse = ("accept", "text/event-stream")
            let ids = [
                server.client.request(
                    path: "/v1/steered/unary", headers: [sse], contentType: "application/json",
                    body: Array("{}".utf8)),
                server.client.request(
                    path: "/v1/steered/server_stream", headers: [sse, ("x-reply-count", "2")],
                    contentType: "application/json", body: Array("1".utf8)),
                server.client.request(path: "/v1/steered/unary?json=1", contentType: nil, method: "GET", body: nil),
                server.client.request(path: "/", contentType: nil, method: "GET", body: nil),
                server.client.request(path: "/web/app.js", contentType: nil, method: "GET", body: nil),
            ]
            try await server.exchange { ids.allSatisfy { server.client.streams[$0]?.isClosed == true } }
            return ids.map { server.client.streams[$0] }
        }
        try await server.finish()
        return records.map {
            Answer(status: $0?.header(":status"), contentType: $0?.header("content-type"), data: $0?.data ?? [])
        }
    }

    @Test func anHTTP2ConnectionIgnoresTheWebFace() async throws {
        let with = try await answers(config: WebHTTP1Tests.config())
        let without = try await answers(config: .defaults)
        #expect(with == without)
        #expect(with[0] == Answer(status: "200", contentType: "application/json", data: Array("{}".utf8)))
        #expect(with[1] == Answer(status: "200", contentType: "application/x-ndjson", data: Array("1\n1\n".utf8)))
        #expect(with[2].status == "405")
        #expect(with[3].status != "200" && with[4].status != "200")
    }
}
