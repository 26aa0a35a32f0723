public import GlimpseMessages
public import GlimpseRPC
public import RPCCore

/// `grpc.reflection.v1.ServerReflection`: answers each request of the stream from a
/// `ReflectionIndex`, in order.
public struct ReflectionService: GrpcReflectionV1.ServerReflection.Handler {
    public let index: ReflectionIndex

    public init(index: ReflectionIndex) {
        self.index = index
    }

    public func serverReflectionInfo(
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
public struct ReflectionServiceV1Alpha: GrpcReflectionV1alpha.ServerReflection.Handler {
    public let index: ReflectionIndex

    public init(index: ReflectionIndex) {
        self.index = index
    }

    public func serverReflectionInfo(
        request: RequestStream<GrpcReflectionV1alpha.ServerReflectionRequest>,
        response: ResponseWriter<GrpcReflectionV1alpha.ServerReflectionResponse>, context: ServerContext
    ) async throws -> Metadata {
        for try await question in request {
            let v1 = try GrpcReflectionV1.ServerReflectionRequest(serializedBytes: try question.serializedBytes())
            let answer = index.respond(to: v1)
            try await response.write(try GrpcReflectionV1alpha.ServerReflectionResponse(
                serializedBytes: try answer.serializedBytes()))
        }
        return Metadata()
    }
}
