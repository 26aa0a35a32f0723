import NIOCore
package import RPCCore
import RPCNIO

/// Serves gRPC services on 127.0.0.1 at a free port for the length of a body: a contract
/// stub for a consumer test, or a provider for its verification.
package enum LoopbackServer {
    /// Runs `body` with the port `services` are served on; every connection is closed
    /// (and every call, a live stream too, cancelled) when it returns.
    package static func serving<Result: Sendable>(
        _ services: [any RPCService], _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let transport = NIOServerTransport(host: "127.0.0.1", port: 0)
        let server = GRPCServer(transport: transport, services: services)
        let serving = Task { try await server.serve() }
        let port: Int
        do {
            guard let bound = try await transport.listeningAddress().port else {
                throw RPCError(code: .internal, message: "the listener has no port")
            }
            port = bound
        } catch {
            serving.cancel()
            _ = await serving.result
            throw error
        }
        do {
            let result = try await body(port)
            serving.cancel()
            _ = await serving.result
            return result
        } catch {
            serving.cancel()
            _ = await serving.result
            throw error
        }
    }
}
