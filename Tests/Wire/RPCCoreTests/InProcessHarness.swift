import RPCCore
import RPCTestService

/// Runs `body` with a client of `services` served over the in-process transport.
func withInProcessClient<R: Sendable>(
    services: [any RPCService] = [SteeredTestService()], maxReceiveMessageSize: Int = 4 * 1024 * 1024,
    unservedStatus: (@Sendable (MethodDescriptor) -> Status?)? = nil,
    _ body: @Sendable (GRPCClient) async throws -> R
) async throws -> R {
    let transport = InProcessTransport(maxReceiveMessageSize: maxReceiveMessageSize)
    var router = RPCRouter(services: services)
    router.unservedStatus = unservedStatus
    let server = GRPCServer(transport: transport.server, router: router)
    let client = GRPCClient(transport: transport.client)
    return try await withThrowingTaskGroup(of: R?.self) { group in
        group.addTask {
            try await server.serve(); return nil
        }
        group.addTask {
            try await client.run(); return nil
        }
        defer {
            client.beginGracefulShutdown()
            server.beginGracefulShutdown()
        }
        return try await body(client)
    }
}

let raw = RawBytesCoder()

extension GRPCClient {
    func echo(
        _ message: [UInt8], _ metadata: Metadata = Metadata(), timeout: Duration? = nil
    ) async throws
        -> ClientResponse<[UInt8]>
    {
        try await unary(
            request: ClientRequest(message: message, metadata: metadata), method: SteeredTestService.unary,
            serializer: raw, deserializer: raw, options: CallOptions(timeout: timeout))
    }
}
