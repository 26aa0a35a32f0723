import Foundation
import GlimpseInterop
import GlimpseMessages
import GlimpseRPC
import Logging
import NIOCore
import RPCCore
import RPCNIO
import ServiceKit
import Synchronization
import Testing

/// Generated services as JSON on the gRPC port, with their generated proto3 JSON coders,
/// called with curl (HTTP/1.1, and HTTP/2 with prior knowledge) and a gRPC client.
@Suite("JSON beside gRPC: generated services, curl, the service runner")
struct JSONServingTests {
    /// A toy clock: `Now` at 2026-01-01T09:00:00Z (manual); `AdvanceTo` refuses to go back;
    /// `NextDue` wants `authorization: Bearer secret`.
    final class ToyClock: GlimpseClockV1.Clock.Handler {
        let now = Mutex<Int64>(1_767_258_000)

        func now(
            request: ServerRequest<GlimpseClockV1.NowRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseClockV1.NowResponse> {
            ServerResponse(message: GlimpseClockV1.NowResponse(now: .init(seconds: now.withLock { $0 }), manual: true))
        }

        func nextDue(
            request: ServerRequest<GlimpseClockV1.NextDueRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseClockV1.NextDueResponse> {
            guard request.metadata[stringValues: "authorization"] == ["Bearer secret"] else {
                throw RPCError(code: .unauthenticated, message: "who are you?")
            }
            return ServerResponse(
                message: GlimpseClockV1.NextDueResponse(nextDue: .init(seconds: 1_767_258_060, nanos: 500_000_000)))
        }

        func advanceTo(
            request: ServerRequest<GlimpseClockV1.AdvanceToRequest>, context: ServerContext
        ) async throws -> ServerResponse<GlimpseClockV1.AdvanceToResponse> {
            let target = request.message.to?.seconds ?? 0
            let moved = now.withLock { now -> Bool in
                guard target >= now else { return false }
                now = target
                return true
            }
            guard moved else { throw RPCError(code: .invalidArgument, message: "the clock does not go back") }
            return ServerResponse(message: GlimpseClockV1.AdvanceToResponse(now: .init(seconds: target), watermark: 7))
        }
    }

    static func serve<R: Sendable>(_ body: @Sendable (Int) async throws -> R) async throws -> R {
        let clock = ToyClock()
        let test = InteropTestService()
        let router = RPCRouter(services: [clock, test], jsonServices: [clock, test])
        let transport = NIOServerTransport(host: "127.0.0.1", port: 0, jsonRoutes: router.jsonRoutes)
        let server = GRPCServer(transport: transport, router: router)
        return try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask {
                try await server.serve(); return nil
            }
            let port = try await transport.listeningAddress().port!
            defer { server.beginGracefulShutdown() }
            return try await body(port)
        }
    }

    struct Curled {
        var status: Int
        var version: String
        var headers: String
        var body: String
    }

    /// `curl -d <body>` (a POST, `application/x-www-form-urlencoded` as curl sends unless told).
    /// Waited for without blocking a thread: the server's handlers share the test's executor.
    static func curl(
        _ port: Int, _ path: String, _ body: String?, http2: Bool = false, headers: [String] = []
    ) async throws -> Curled {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "glimpse-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let headerFile = directory.appendingPathComponent("headers"),
            bodyFile = directory.appendingPathComponent("body")
        let outFile = directory.appendingPathComponent("out")
        var arguments = [
            "-sS", "--max-time", "30", "-D", headerFile.path, "-o", bodyFile.path, "-w", "%{http_code} %{http_version}",
        ]
        if http2 { arguments.append("--http2-prior-knowledge") }
        for header in headers { arguments += ["-H", header] }
        if let body {
            let requestFile = directory.appendingPathComponent("request")
            try Data(body.utf8).write(to: requestFile)
            arguments += ["--data-binary", "@\(requestFile.path)"]
        } else {
            arguments += ["-X", "POST"]
        }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        let out = try FileHandle(forWritingTo: outFile)
        defer { try? out.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        process.standardOutput = out
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let written = (try? String(contentsOf: outFile, encoding: .utf8)) ?? ""
        #expect(status == 0, "curl failed: \(written)")
        let parts = written.split(separator: " ")
        return Curled(
            status: Int(parts.first ?? "") ?? 0, version: parts.count > 1 ? String(parts[1]) : "",
            headers: (try? String(contentsOf: headerFile, encoding: .utf8)) ?? "",
            body: (try? String(contentsOf: bodyFile, encoding: .utf8)) ?? "")
    }

    @Test(arguments: [false, true])
    func answersUnaryCallsInCanonicalJSON(_ http2: Bool) async throws {
        try await Self.serve { port in
            let now = try await Self.curl(port, "/v1/clock/now", "", http2: http2)
            #expect(now.status == 200)
            #expect(now.version == (http2 ? "2" : "1.1"))
            #expect(now.headers.lowercased().contains("content-type: application/json"))
            #expect(now.body == #"{"now":"2026-01-01T09:00:00Z","manual":true}"#)

            let advanced = try await Self.curl(
                port, "/v1/clock/advance_to", #"{"to": "2026-01-01T10:00:00Z"}"#, http2: http2)
            #expect(advanced.status == 200)
            #expect(advanced.body == #"{"now":"2026-01-01T10:00:00Z","watermark":"7"}"#, "uint64 as a string")

            let back = try await Self.curl(
                port, "/v1/clock/advance_to", #"{"to": "2025-01-01T00:00:00Z"}"#, http2: http2)
            #expect(back.status == 400)
            #expect(back.body == #"{"code":3,"status":"INVALID_ARGUMENT","message":"the clock does not go back"}"#)

            let payload = try await Self.curl(
                port, "/v1/test_service/unary_call", #"{"responseSize": 3}"#, http2: http2)
            #expect(payload.status == 200 && payload.body == #"{"payload":{"body":"AAAA"}}"#)

            let empty = try await Self.curl(port, "/v1/test_service/empty_call", nil, http2: http2)
            #expect(empty.status == 200 && empty.body == "{}")
        }
    }

    @Test(arguments: [false, true])
    func refusesTextThatIsNotTheRequest(_ http2: Bool) async throws {
        try await Self.serve { port in
            let broken = try await Self.curl(port, "/v1/clock/now", "{not json", http2: http2)
            #expect(broken.status == 400)
            #expect(broken.body.hasPrefix(#"{"code":3,"status":"INVALID_ARGUMENT","message":"#))

            let unknown = try await Self.curl(
                port, "/v1/clock/advance_to", #"{"too": "2026-01-01T10:00:00Z"}"#, http2: http2)
            #expect(unknown.status == 400)
            #expect(unknown.body.contains("too"), "the message names the field: \(unknown.body)")

            let wrongType = try await Self.curl(
                port, "/v1/test_service/unary_call", #"{"responseSize": "many"}"#, http2: http2)
            #expect(wrongType.status == 400)
            #expect(wrongType.body.contains("responseSize"), "\(wrongType.body)")

            let status = try await Self.curl(
                port, "/v1/test_service/unary_call", #"{"responseStatus": {"code": 5, "message": "gone"}}"#,
                http2: http2)
            #expect(status.status == 404)
            #expect(status.body == #"{"code":5,"status":"NOT_FOUND","message":"gone"}"#)

            let route = try await Self.curl(port, "/v1/clock/later", "{}", http2: http2)
            #expect(route.status == 404)
        }
    }

    @Test(arguments: [false, true])
    func passesAuthorization(_ http2: Bool) async throws {
        try await Self.serve { port in
            let anonymous = try await Self.curl(port, "/v1/clock/next_due", "", http2: http2)
            #expect(anonymous.status == 401)
            #expect(anonymous.body == #"{"code":16,"status":"UNAUTHENTICATED","message":"who are you?"}"#)
            let known = try await Self.curl(
                port, "/v1/clock/next_due", "", http2: http2, headers: ["Authorization: Bearer secret"])
            #expect(known.status == 200)
            #expect(known.body == #"{"nextDue":"2026-01-01T09:01:00.500Z"}"#)
        }
    }

    /// curl 7.x sends `Expect: 100-continue` for a body over 1 KiB on HTTP/1.1.
    @Test(arguments: [false, true])
    func takesALargerBody(_ http2: Bool) async throws {
        try await Self.serve { port in
            let payload = Base64.encode([UInt8](repeating: 7, count: 3000))
            let response = try await Self.curl(
                port, "/v1/test_service/unary_call", #"{"responseSize": 1, "payload": {"body": "\#(payload)"}}"#,
                http2: http2)
            #expect(response.status == 200)
            #expect(response.body == #"{"payload":{"body":"AA=="}}"#)
        }
    }

    @Test(arguments: [false, true])
    func streamsMessagesAsLines(_ http2: Bool) async throws {
        try await Self.serve { port in
            let response = try await Self.curl(
                port, "/v1/test_service/streaming_output_call",
                #"{"responseParameters": [{"size": 1}, {"size": 2, "intervalUs": 20000}]}"#, http2: http2)
            #expect(response.status == 200)
            #expect(response.headers.lowercased().contains("content-type: application/x-ndjson"))
            #expect(response.body == "{\"payload\":{\"body\":\"AA==\"}}\n{\"payload\":{\"body\":\"AAA=\"}}\n")
        }
    }

    @Test func aGRPCClientCallsTheSamePort() async throws {
        try await Self.serve { port in
            let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.run() }
                let clock = GlimpseClockV1.Clock.Client(wrapping: client)
                #expect(try await clock.now(ClientRequest(message: .init())).message.manual)
                #expect(try await Self.curl(port, "/v1/clock/now", "", http2: true).status == 200)
                #expect(try await clock.now(ClientRequest(message: .init())).message.now?.seconds == 1_767_258_000)
                client.beginGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    @Test func theServiceRunnerServesItsJSONServices() async throws {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let clock = ToyClock()
        var runner = ServiceRunner(
            config: .defaults(service: "json-test"),
            logger: Logger(label: "json-test") { _ in SwiftLogNoOpLogHandler() },
            services: [clock], serviceNames: [GlimpseClockV1.Clock.name], descriptors: [])
        runner.jsonServices = [clock]
        runner.shutdownSignals = []
        runner.onListening = { portContinuation.yield($0) }
        runner.markReady()
        let started = runner
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await started.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            #expect(
                try await Self.curl(port, "/v1/clock/now", nil).body == #"{"now":"2026-01-01T09:00:00Z","manual":true}"#
            )
            #expect(try await Self.curl(port, "/v1/clock/now", nil, http2: true).status == 200)
            #expect(try await Self.curl(port, "/v1/health/check", nil).status == 404, "health is gRPC only")
            let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
            group.addTask { try await client.run() }
            let health = GrpcHealthV1.Health.Client(wrapping: client)
            #expect(try await health.check(ClientRequest(message: .init(service: ""))).message.status == .serving)
            client.beginGracefulShutdown()
            group.cancelAll()
        }
    }
}
