import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import RPCTestService

/// A server on 127.0.0.1 (ephemeral port) and a client connected to it, for one test.
struct Loopback {
    let server: GRPCServer
    let serverTransport: NIOServerTransport
    let client: GRPCClient
    let port: Int

    /// Runs `body` with a served router and a client; shuts both down after.
    static func run<R: Sendable>(
        services: [any RPCService] = [SteeredTestService()],
        serverConfig: NIOServerConfig = .defaults,
        clientConfig: NIOClientConfig = .defaults,
        _ body: @Sendable (Loopback) async throws -> R
    ) async throws -> R {
        let serverTransport = NIOServerTransport(host: "127.0.0.1", port: 0, config: serverConfig)
        let server = GRPCServer(transport: serverTransport, services: services)
        return try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask {
                try await server.serve(); return nil
            }
            let port = try await serverTransport.listeningAddress().port!
            let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port, config: clientConfig))
            group.addTask {
                try await client.run(); return nil
            }
            let loopback = Loopback(server: server, serverTransport: serverTransport, client: client, port: port)
            do {
                let result = try await body(loopback)
                client.beginGracefulShutdown()
                server.beginGracefulShutdown()
                try await group.waitForAll()
                return result
            } catch {
                client.beginGracefulShutdown()
                server.beginGracefulShutdown()
                group.cancelAll()
                throw error
            }
        }
    }
}

/// Raw-bytes calls to the steered test service.
extension GRPCClient {
    func steeredUnary(
        _ message: [UInt8], metadata: Metadata = Metadata(), timeout: Duration? = nil
    ) async throws -> ClientResponse<[UInt8]> {
        try await unary(
            request: ClientRequest(message: message, metadata: metadata), method: SteeredTestService.unary,
            serializer: RawBytesCoder(), deserializer: RawBytesCoder(), options: CallOptions(timeout: timeout))
    }
}
