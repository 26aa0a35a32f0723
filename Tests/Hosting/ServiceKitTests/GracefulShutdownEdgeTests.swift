import Foundation
import GlimpseInterop
import GlimpseMessages
import GlimpseRPC
import RPCCore
import RPCNIO
import Testing

/// The real glimpse-interop-server on loopback: SIGTERM while a call is in flight.
@Suite("Graceful shutdown of the real executable", .serialized)
struct GracefulShutdownEdgeTests {
    @Test("SIGTERM: health goes NOT_SERVING, the call in flight finishes OK, the process exits 0")
    func sigtermDuringCall() async throws {
        let process = Process()
        process.executableURL = try builtExecutable("glimpse-interop-server")
        process.arguments = ["--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let lines = LineReader(output.fileHandleForReading)
        let first = try #require(lines.nextLine())
        #expect(first.hasPrefix("listening on port "))
        let port = try #require(Int(first.split(separator: " ").last ?? ""))

        let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
        try await withThrowingTaskGroup { group in
            group.addTask { try await client.run() }
            let test = GrpcTesting.TestService.Client(wrapping: client)
            let health = GrpcHealthV1.Health.Client(wrapping: client)

            // Health, watched from before the signal to the end.
            let (watching, watchingContinuation) = AsyncStream.makeStream(of: Void.self)
            group.addTask {
                let statuses = try await health.watch(ClientRequest(message: .init(service: ""))) { responses in
                    var seen: [GrpcHealthV1.HealthCheckResponse.ServingStatus] = []
                    for try await response in responses {
                        seen.append(response.status)
                        if seen.count == 1 { watchingContinuation.yield() }
                    }
                    #expect(responses.finalStatus?.code == .ok)
                    return seen
                }
                #expect(statuses == [.serving, .notServing])
            }
            for await _ in watching { break }

            // Four responses 250 ms apart: the signal comes after the first.
            var request = GrpcTesting.StreamingOutputCallRequest()
            request.responseParameters = (0..<4).map { _ in
                var parameters = GrpcTesting.ResponseParameters()
                parameters.size = 8
                parameters.intervalUs = 250_000
                return parameters
            }
            let (count, status) = try await test.streamingOutputCall(ClientRequest(message: request)) { responses in
                var count = 0
                for try await _ in responses {
                    count += 1
                    if count == 1 { kill(process.processIdentifier, SIGTERM) }
                }
                return (count, responses.finalStatus)
            }
            #expect(count == 4)
            #expect(status?.code == .ok)
            client.beginGracefulShutdown()
            try await group.waitForAll()
        }

        let rest = lines.rest()  // ends when the process closes its output
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(rest.contains("statuses: ok="))
    }

    @Test("an invalid setting fails fast, naming the flag and the variable")
    func invalidSetting() throws {
        let process = Process()
        process.executableURL = try builtExecutable("glimpse-interop-server")
        process.environment = ["GLIMPSE_CLOCK": "maual"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let text = LineReader(errors.fileHandleForReading).rest()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(text.contains(#"--clock: expected system or manual, got "maual" (from GLIMPSE_CLOCK)"#))
    }
}
