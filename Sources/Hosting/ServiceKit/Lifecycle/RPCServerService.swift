import Logging
import NIOCore
import RPCCore
import RPCNIO
import ServiceLifecycle

/// The gRPC server as a lifecycle service. On graceful shutdown, in this order: health
/// reports NOT_SERVING (and health watches end, so they do not hold the server open), the
/// service's own endless streams are ended (`endStreams`, e.g. an event log's followers),
/// then the listener closes and every connection gets GOAWAY; `run` returns once the
/// calls in flight have finished. Cancellation (the group's grace period is over) closes
/// every connection at once.
struct RPCServerService: Service {
    let server: GRPCServer
    let transport: NIOServerTransport
    let health: HealthStatusStore
    let readiness: Readiness
    let logger: Logger
    let endStreams: [@Sendable () -> Void]
    let listening: @Sendable (SocketAddress) -> Void

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await server.serve() }
                let address = try await transport.listeningAddress()
                listening(address)
            }
        } onGracefulShutdown: {
            logger.info("shutting down: NOT_SERVING, GOAWAY, waiting for calls in flight")
            readiness.shutDown(health)
            for end in endStreams { end() }
            server.beginGracefulShutdown()
        }
        logger.info("gRPC server stopped")
    }
}
