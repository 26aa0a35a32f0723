package import GlimpseMessages
import GlimpseRPC
package import RPCCore

/// `grpc.reflection.v1.ServerReflection`: answers each request of the stream from a
/// `ReflectionIndex`, in order.
package struct ReflectionService: GrpcReflectionV1.ServerReflection.Handler {
    package let index: ReflectionIndex

    package init(index: ReflectionIndex) {
        self.index = index
    }

    package func serverReflectionInfo(
        request: RequestStream<GrpcReflectionV1.ServerReflectionRequest>,
        response: ResponseWriter<GrpcReflectionV1.ServerReflectionResponse>, context: ServerContext
    ) async throws -> Metadata {
        for try await question in request {
            try await response.write(index.respond(to: question))
        }
        return Metadata()
    }
}

/// `grpc.reflection.v1alpha.ServerReflection`, which older clients (grpcurl, grpcio's
/// own reflection client before v1) still ask. Its messages are wire-identical to v1's,
/// so a v1alpha request is re-read as v1 and the v1 answer re-read as v1alpha.
package struct ReflectionServiceV1Alpha: GrpcReflectionV1alpha.ServerReflection.Handler {
    package let index: ReflectionIndex

    package init(index: ReflectionIndex) {
        self.index = index
    }

    package func serverReflectionInfo(
        request: RequestStream<GrpcReflectionV1alpha.ServerReflectionRequest>,
        response: ResponseWriter<GrpcReflectionV1alpha.ServerReflectionResponse>, context: ServerContext
    ) async throws -> Metadata {
        for try await question in request {
            let v1 = try GrpcReflectionV1.ServerReflectionRequest(serializedBytes: try question.serializedBytes())
            let answer = index.respond(to: v1)
            try await response.write(
                try GrpcReflectionV1alpha.ServerReflectionResponse(
                    serializedBytes: try answer.serializedBytes()))
        }
        return Metadata()
    }
}
