#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP2
import NIOCore

/// A running server and what the tests need to reach it.
struct RunningServer {
    let server: HTTP2Server
    let handler: TestHandler
    /// The bound ports, in the order of the listeners.
    let ports: [Int]

    var port: Int { ports[0] }
}

/// Runs `body` against a server listening on loopback (port 0), then shuts it down
/// gracefully and waits for `run` to return (a server that cannot stop fails the test by
/// its time limit). If `body` throws, the server is cancelled instead.
func withServer<R>(
    _ listeners: [HTTP2Listener] = [.cleartext(port: 0)], config: HTTP2ServerConfig = .defaults,
    handler: TestHandler = TestHandler(), _ body: (RunningServer) async throws -> R
) async throws -> R {
    let server = HTTP2Server(listeners: listeners, config: config, handler: handler)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            let ports = try await server.listeningAddresses().map { $0.port! }
            let result = try await body(RunningServer(server: server, handler: handler, ports: ports))
            server.beginGracefulShutdown()
            try await group.next()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}

/// A fresh certificate directory for one test.
func makeCertificates() throws -> LocalCertificateAuthority.Files {
    try LocalCertificateAuthority.prepare(in: temporaryDirectory("certs").path)
}

func temporaryDirectory(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-h2-\(name)-\(UUID().uuidString)")
}
