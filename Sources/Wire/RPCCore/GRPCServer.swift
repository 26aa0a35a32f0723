/// Serves the methods of a router over a transport.
///
///     let server = GRPCServer(transport: transport, services: [EchoService()])
///     try await server.serve()        // until server.beginGracefulShutdown()
public struct GRPCServer: Sendable {
    public let transport: any ServerTransport
    public let router: RPCRouter

    public init(transport: any ServerTransport, router: RPCRouter) {
        self.transport = transport
        self.router = router
    }

    public init(transport: any ServerTransport, services: [any RPCService]) {
        self.init(transport: transport, router: RPCRouter(services: services))
    }

    /// Serves until shut down; returns after the calls in flight have finished.
    public func serve() async throws {
        let router = self.router
        try await transport.listen { stream in await router.handle(stream) }
    }

    /// Stops taking calls; `serve()` returns once the calls in flight are done.
    public func beginGracefulShutdown() {
        transport.beginGracefulShutdown()
    }
}
