package import GlimpseMessages
import GlimpseRPC
package import RPCCore

/// `grpc.health.v1.Health` over a `HealthStatusStore`: Check answers the status or
/// NOT_FOUND for a name never registered; Watch streams the status and every change until
/// the client leaves or the server shuts down.
package struct HealthService: GrpcHealthV1.Health.Handler {
    package let store: HealthStatusStore

    package init(store: HealthStatusStore) {
        self.store = store
    }

    package func check(
        request: ServerRequest<GrpcHealthV1.HealthCheckRequest>, context: ServerContext
    ) async throws -> ServerResponse<GrpcHealthV1.HealthCheckResponse> {
        let service = request.message.service
        guard let status = store.status(of: service) else {
            throw RPCError(code: .notFound, message: "unknown service \(service)")
        }
        return ServerResponse(message: .init(status: status))
    }

    package func watch(
        request: ServerRequest<GrpcHealthV1.HealthCheckRequest>,
        response: ResponseWriter<GrpcHealthV1.HealthCheckResponse>, context: ServerContext
    ) async throws -> Metadata {
        for await status in store.watch(request.message.service) {
            try await response.write(.init(status: status))
        }
        return Metadata()
    }
}
