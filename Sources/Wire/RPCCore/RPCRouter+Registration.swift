/// The four call types, each with async handlers. Handlers return normally for OK and throw
/// `RPCError` for any other status (see `ServerCallFailure`).
///
/// `format: .json` registers the method for HTTP/JSON calls (coders of JSON text; its
/// route is derived from its name, see `JSONRoutes`) beside, not instead of, its gRPC
/// registration.
extension RPCRouter {
    /// Inlinable, like `ServerCallRunner.runUnary`: specialized for the message types where
    /// a service registers, the unary path keeps its values in fixed-size frames instead of
    /// boxes on the task's stack, and calls the coders without witness tables.
    @inlinable
    public mutating func registerUnary<Request: Sendable, Response: Sendable>(
        _ method: MethodDescriptor,
        format: MessageFormat = .protobuf,
        deserializer: some MessageDeserializer<Request>,
        serializer: some MessageSerializer<Response>,
        handler: @escaping @Sendable (ServerRequest<Request>, ServerContext) async throws -> ServerResponse<Response>
    ) {
        register(
            method, format: format,
            Method { stream, context in
                await ServerCallRunner.runUnary(stream, context, deserializer, serializer, handler)
            })
    }

    public mutating func registerServerStreaming<Request: Sendable, Response: Sendable>(
        _ method: MethodDescriptor,
        format: MessageFormat = .protobuf,
        deserializer: some MessageDeserializer<Request>,
        serializer: some MessageSerializer<Response>,
        handler:
            @escaping @Sendable (ServerRequest<Request>, ResponseWriter<Response>, ServerContext) async throws ->
            Metadata
    ) {
        register(
            method, format: format,
            Method { stream, context in
                await ServerCallRunner.run(stream) { progress in
                    let request = try await ServerCallRunner.readSingle(stream, deserializer)
                    let writer = ResponseWriter(stream: stream, serializer: serializer, progress: progress)
                    return try await handler(
                        ServerRequest(metadata: context.requestMetadata, message: request), writer, context)
                }
            })
    }

    public mutating func registerClientStreaming<Request: Sendable, Response: Sendable>(
        _ method: MethodDescriptor,
        format: MessageFormat = .protobuf,
        deserializer: some MessageDeserializer<Request>,
        serializer: some MessageSerializer<Response>,
        handler: @escaping @Sendable (RequestStream<Request>, ServerContext) async throws -> ServerResponse<Response>
    ) {
        register(
            method, format: format,
            Method { stream, context in
                await ServerCallRunner.runSingleResponse(stream, serializer) {
                    let requests = RequestStream(
                        metadata: context.requestMetadata, stream: stream, deserializer: deserializer)
                    return try await handler(requests, context)
                }
            })
    }

    public mutating func registerBidirectionalStreaming<Request: Sendable, Response: Sendable>(
        _ method: MethodDescriptor,
        format: MessageFormat = .protobuf,
        deserializer: some MessageDeserializer<Request>,
        serializer: some MessageSerializer<Response>,
        handler:
            @escaping @Sendable (RequestStream<Request>, ResponseWriter<Response>, ServerContext) async throws ->
            Metadata
    ) {
        register(
            method, format: format,
            Method { stream, context in
                await ServerCallRunner.run(stream) { progress in
                    let requests = RequestStream(
                        metadata: context.requestMetadata, stream: stream, deserializer: deserializer)
                    let writer = ResponseWriter(stream: stream, serializer: serializer, progress: progress)
                    return try await handler(requests, writer, context)
                }
            })
    }
}
