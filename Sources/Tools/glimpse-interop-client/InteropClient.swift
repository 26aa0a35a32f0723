// glimpse-interop-client: the gRPC interop cases, run by the project's Swift client
// against any gRPC server (the tests use a stock grpcio one).
//
//     glimpse-interop-client --server_port 50052 [--server_host 127.0.0.1] [--test_case all]
//
// Prints PASS/FAIL per case and `N passed, N failed`; exits non-zero if any failed.
import ArgumentParser
import GlimpseInterop
import RPCCore
import RPCNIO

@main
struct InteropClient: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-interop-client",
        abstract: "Runs gRPC interoperability test cases against a server.")

    @Option(name: .customLong("server_host")) var host = "127.0.0.1"
    @Option(name: .customLong("server_port")) var port: Int
    @Option(name: .customLong("test_case"), help: "A case name, or all.") var testCase = "all"

    func validate() throws {
        if testCase != "all", InteropCase(rawValue: testCase) == nil {
            throw ValidationError(
                "unknown test case \(testCase); known: \(InteropCase.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        let cases = testCase == "all" ? InteropCase.allCases : [InteropCase(rawValue: testCase)!]
        let client = GRPCClient(transport: NIOClientTransport(host: host, port: port))
        let failed = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            var failed = 0
            for interopCase in cases {
                do {
                    try await interopCase.run(on: client)
                    print("PASS \(interopCase.rawValue)")
                } catch {
                    print("FAIL \(interopCase.rawValue): \(error)")
                    failed += 1
                }
            }
            client.beginGracefulShutdown()
            try await group.waitForAll()
            return failed
        }
        print("\(cases.count - failed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode.failure }
    }
}
