import Foundation
import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import Testing

/// The Swift client against a plain HTTP/2 server (Debian's nghttpd): responses without
/// grpc-status map to gRPC statuses as grpc's http-grpc-status-mapping.md says.
@Suite("Swift client against nghttpd (no gRPC)", .serialized)
struct HTTPStatusMappingPeerTests {
    @Test func a404WithoutGRPCStatusIsUnimplemented() async throws {
        let error = await #expect(throws: RPCError.self) {
            try await Self.withNGHTTPD { client in
                try await client.unary(
                    request: ClientRequest(message: [UInt8]()),
                    method: MethodDescriptor(service: "no.Such", method: "Thing"),
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder())
            }
        }
        #expect(error?.code == .unimplemented)
    }

    @Test func a200ThatIsNotGRPCFails() async throws {
        let error = await #expect(throws: RPCError.self) {
            try await Self.withNGHTTPD { client in
                try await client.unary(
                    request: ClientRequest(message: [UInt8]()),
                    method: MethodDescriptor(service: "static", method: "file"),
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder())
            }
        }
        #expect(error?.code == .internal)
    }

    /// Serves a directory holding `/static/file` with nghttpd (nghttp2-server) on a free port.
    static func withNGHTTPD<R: Sendable>(_ body: @Sendable (GRPCClient) async throws -> R) async throws -> R {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-nghttpd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("static"), withIntermediateDirectories: true)
        try Data("not grpc".utf8).write(to: root.appendingPathComponent("static/file"))
        defer { try? FileManager.default.removeItem(at: root) }
        for _ in 0..<5 {
            let port = try await freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nghttpd")
            process.arguments = ["--no-tls", "-d", root.path, String(port)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            guard await listens(on: port, while: process) else {
                await stop(process)
                continue  // the port was taken meanwhile: try another
            }
            do {
                let result = try await withClient(port: port, body)
                await stop(process)
                return result
            } catch {
                await stop(process)
                throw error
            }
        }
        throw RPCError(code: .unavailable, message: "nghttpd did not start")
    }

    /// A port nothing listens on right now (the kernel's choice for port 0).
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(
            host: "127.0.0.1", port: 0
        ).get()
        let port = channel.localAddress!.port!
        try await channel.close()
        return port
    }

    /// Waits until `port` accepts connections, as long as `process` runs.
    static func listens(on port: Int, while process: Process) async -> Bool {
        for _ in 0..<500 where process.isRunning {
            if let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(
                host: "127.0.0.1", port: port
            ).get() {
                try? await channel.close()
                return true
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Kills and reaps `process` without blocking a concurrency thread. (SIGKILL: a child
    /// spawned from a Dispatch thread inherits its blocked SIGTERM.)
    static func stop(_ process: Process) async {
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<500 where process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    }

    static func withClient<R: Sendable>(port: Int, _ body: @Sendable (GRPCClient) async throws -> R) async throws -> R {
        let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
        return try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask {
                try await client.run(); return nil
            }
            defer { client.beginGracefulShutdown() }
            return try await body(client)
        }
    }
}
