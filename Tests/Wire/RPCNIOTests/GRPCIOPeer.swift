import Foundation
import RPCCore
import RPCNIO

/// Tests/Peers/steered_grpcio_server.py (stock grpcio) as a running process.
final class GRPCIOPeer: @unchecked Sendable {
    // Unchecked: set up once, then only read; the process is stopped by `stop()`.
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private(set) var port = 0

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Peers/steered_grpcio_server.py").standardized
    }

    /// Starts the server; fails (no skip) when python3 or grpcio is missing: the test
    /// script installs them, and a peer test that cannot run must say so.
    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "--port", "0"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let handle = output.fileHandleForReading
        var line = Data()
        while let byte = try handle.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on port "), let port = Int(text.dropFirst("listening on port ".count)) else {
            process.terminate()
            throw RPCError(
                code: .unavailable, message: "grpcio peer did not start (python3 with grpcio needed): \(text)")
        }
        self.port = port
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Runs `body` with a Swift client of the grpcio server.
    static func withClient<R: Sendable>(
        config: NIOClientConfig = .defaults, _ body: @Sendable (GRPCClient) async throws -> R
    ) async throws -> R {
        let peer = try GRPCIOPeer()
        defer { peer.stop() }
        let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: peer.port, config: config))
        return try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask {
                try await client.run(); return nil
            }
            defer { client.beginGracefulShutdown() }
            return try await body(client)
        }
    }
}
