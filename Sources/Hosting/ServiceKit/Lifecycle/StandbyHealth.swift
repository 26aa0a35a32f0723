import GlimpseMessages
package import Logging
import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import GlimpseRPC

#if canImport(Glibc)
import Glibc
#endif

/// What a replica's port answers while it waits to become active (a standby, waiting for its
/// store's lease): `grpc.health.v1.Health` alone, with `liveness` SERVING (the process is
/// well: leave it be) and the server ("") and each of its services NOT_SERVING (send it no
/// calls); a call of one of its services is answered UNAVAILABLE, which clients retry. An orchestrator's readiness probe so keeps calls away from a standby while its
/// liveness probe, asking for `liveness`, does not restart it.
///
///     let server = try await StandbyHealth(config: config, serviceNames: names, logger: logger)
///         .serving { try await openTheStoreWaitingForTheLease() }
///
/// When the work ends the health server goes away (NOT_SERVING to its watchers, GOAWAY, the
/// listener closed) so that the service's own server binds the port; `ServiceRunner` keeps
/// answering `liveness` SERVING until it shuts down.
package struct StandbyHealth: Sendable {
    /// The health name a liveness probe asks for: SERVING from the standby's first moment to
    /// the service's shutdown.
    package static let livenessName = "liveness"

    let config: ServiceConfig
    let serviceNames: [String]
    let logger: Logger
    /// How long the health server may take to let its connections go before they are closed.
    var closeGrace: Duration = .seconds(5)

    package init(config: ServiceConfig, serviceNames: [String], logger: Logger) {
        self.config = config
        self.serviceNames = serviceNames
        self.logger = logger
    }

    /// Serves the standby's health on the service's port while `work` runs. With port 0 (a
    /// port picked at bind, which the service's own server would not get again) nothing is
    /// served. A port that cannot be bound is logged, and `work` runs regardless.
    package func serving<T>(while work: () async throws -> T) async throws -> T {
        // Until `ServiceRunner` handles them, SIGTERM and SIGINT would be dropped by the kernel
        // when this process is PID 1 of its container (a signal PID 1 has no handler for is not
        // delivered): an orchestrator stopping a standby, or a replica still replaying, would
        // wait for its grace period and SIGKILL. Such a replica holds nothing to save: it ends
        // at once, exit 0.
        let stop: @convention(c) (Int32) -> Void = { _ in _exit(0) }
        signal(SIGTERM, stop)
        signal(SIGINT, stop)
        defer {
            signal(SIGTERM, SIG_DFL)
            signal(SIGINT, SIG_DFL)
        }
        guard config.port != 0 else { return try await work() }
        let health = HealthStatusStore([:])
        for name in serviceNames + [GrpcHealthV1.Health.name, ""] { health.set(.notServing, for: name) }
        health.set(.serving, for: Self.livenessName)
        var transportConfig = NIOServerConfig.defaults
        transportConfig.idleTimeout = config.idleTimeout
        let transport = NIOServerTransport(host: config.host, port: config.port, config: transportConfig)
        var router = RPCRouter(services: [HealthService(store: health)])
        let served = Set(serviceNames)
        router.unservedStatus = { method in
            guard served.contains(method.service) else { return nil }
            return Status(
                code: .unavailable,
                message: "a standby: another replica of this service is active (it holds the store's lease); call it")
        }
        let server = GRPCServer(transport: transport, router: router)
        let logger = self.logger
        let port = config.port
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await server.serve()
                } catch {
                    logger.warning("standby: no health on port \(port): \(error)")
                }
            }
            if (try? await transport.listeningAddress()) != nil {
                logger.notice(
                    "standby: port \(port) answers health (\(Self.livenessName) SERVING, the rest NOT_SERVING)")
            }
            let result: Result<T, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            health.shutDown()
            server.beginGracefulShutdown()
            let grace = closeGrace
            group.addTask { try await Task.sleep(for: grace) }
            _ = try? await group.next()  // the server has stopped, or the grace is over
            group.cancelAll()  // (a server still waiting for a connection closes it now)
            return try result.get()
        }
    }
}
