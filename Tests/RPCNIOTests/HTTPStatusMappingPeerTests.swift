import Foundation
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
                    request: ClientRequest(message: [UInt8]()), method: MethodDescriptor(service: "no.Such", method: "Thing"),
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder())
            }
        }
        #expect(error?.code == .unimplemented)
    }

    @Test func a200ThatIsNotGRPCFails() async throws {
        let error = await #expect(throws: RPCError.self) {
            try await Self.withNGHTTPD { client in
                try await client.unary(
                    request: ClientRequest(message: [UInt8]()), method: MethodDescriptor(service: "static", method: "file"),
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder())
            }
        }
        #expect(error?.code == .internal)
    }

    /// Serves a directory holding `/static/file` with nghttpd (nghttp2-server) on a free port.
    static func withNGHTTPD<R: Sendable>(_ body: @Sendable (GRPCClient) async throws -> R) async throws -> R {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-nghttpd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("static"), withIntermediateDirectories: true)
        try Data("not grpc".utf8).write(to: root.appendingPathComponent("static/file"))
        defer { try? FileManager.default.removeItem(at: root) }
        let port = Int.random(in: 40_000..<50_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nghttpd")
        process.arguments = ["--no-tls", "-d", root.path, String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            let result = try await withClient(port: port, body)
            await stop(process)
            return result
        } catch {
            await stop(process)
            throw error
        }
    }

    /// Kills and reaps `process` without blocking a concurrency thread. (SIGKILL: a child
    /// spawned from a Dispatch thread inherits its blocked SIGTERM.)
    static func stop(_ process: Process) async {
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<500 where process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    }

    static func withClient<R: Sendable>(port: Int, _ body: @Sendable (GRPCClient) async throws -> R) async throws -> R {
        let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
        for _ in 0..<100 {
            // Wait until nghttpd listens: a refused connection is UNAVAILABLE.
            do {
                _ = try await client.unary(
                    request: ClientRequest(message: [UInt8]()), method: MethodDescriptor(service: "probe", method: "p"),
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder())
            } catch let error as RPCError where error.code == .unavailable {
                try await Task.sleep(for: .milliseconds(20))
                continue
            } catch {}
            break
        }
        return try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask { try await client.run(); return nil }
            defer { client.beginGracefulShutdown() }
            return try await body(client)
        }
    }
}
