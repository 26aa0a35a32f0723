/// Runs one server call: the body produces the response, the runner turns its outcome into
/// the final status and sends it, cancellable through the stream.
@usableFromInline
enum ServerCallRunner {
    static func run(_ stream: ServerStream, _ body: (ResponseProgress) async throws -> Metadata) async {
        await stream.runCancellable {
            let progress = ResponseProgress()
            var status = Status.ok
            var trailers = Metadata()
            do {
                trailers = try await body(progress)
                if let metadata = progress.takeInitialMetadataIfUnsent(), !metadata.isEmpty {
                    stream.send(.metadata(metadata), flush: false)
                }
            } catch {
                let failure = ServerCallFailure.error(for: error)
                status = failure.status
                trailers = failure.metadata
            }
            stream.send(.status(status, trailers), flush: true)
        }
    }

    /// Runs a call with a single response (unary, client streaming) without the shared
    /// progress object: the body returns everything, and it all goes out in one flush.
    static func runSingleResponse<Message>(
        _ stream: ServerStream, _ serializer: some MessageSerializer<Message>,
        _ body: () async throws -> ServerResponse<Message>
    ) async {
        await stream.runCancellable {
            do {
                let response = try await body()
                let bytes: [UInt8]
                do {
                    bytes = try serializer.serialize(response.message)
                } catch {
                    throw RPCError(code: .internal, message: "Failed to serialize the response: \(error)")
                }
                // One bounded message: sent without waiting, flushed with the status.
                stream.sendSingleResponse(
                    metadata: response.metadata, message: bytes, trailers: response.trailingMetadata)
            } catch {
                let failure = ServerCallFailure.error(for: error)
                stream.send(.status(failure.status, failure.metadata), flush: true)
            }
        }
    }

    /// A unary call from request to status in one async frame (plus the handler's): the
    /// request taken without waiting when it is complete, as it almost always is by the
    /// time a call starts. Each closure or helper frame between the task and the handler
    /// costs an allocation from the task's stack and, beyond its first slab, a malloc.
    @inlinable
    static func runUnary<Request, Response>(
        _ stream: ServerStream, _ context: ServerContext,
        _ deserializer: some MessageDeserializer<Request>, _ serializer: some MessageSerializer<Response>,
        _ handler: @Sendable (ServerRequest<Request>, ServerContext) async throws -> ServerResponse<Response>
    ) async {
        stream.enterHandlerTask()
        do {
            let request: Request
            if case .one(let bytes) = stream.takeSingleRequestIfComplete() {
                request = try ServerCallFailure.decode(bytes, with: deserializer)
            } else {
                request = try await readSingle(stream, deserializer)
            }
            let response = try await handler(
                ServerRequest(metadata: context.requestMetadata, message: consume request), context)
            let bytes: [UInt8]
            do {
                bytes = try serializer.serialize(response.message)
            } catch {
                throw RPCError(code: .internal, message: "Failed to serialize the response: \(error)")
            }
            stream.sendSingleResponse(metadata: response.metadata, message: bytes, trailers: response.trailingMetadata)
        } catch {
            let failure = ServerCallFailure.error(for: error)
            stream.send(.status(failure.status, failure.metadata), flush: true)
        }
        stream.leaveHandlerTask()
    }

    /// The one request message of a unary or server-streaming call.
    @usableFromInline
    static func readSingle<Message>(
        _ stream: ServerStream, _ deserializer: some MessageDeserializer<Message>
    ) async throws -> Message {
        switch stream.takeSingleRequestIfComplete() {
        case .one(let bytes): return try ServerCallFailure.decode(bytes, with: deserializer)
        case .none: throw RPCError(code: .internal, message: "Half-closed without a request")
        case .tooMany: throw RPCError(code: .internal, message: "Too many requests for a single-request method")
        case .incomplete: break
        }
        guard let bytes = try await stream.nextRequest() else {
            throw RPCError(code: .internal, message: "Half-closed without a request")
        }
        if try await stream.nextRequest() != nil {
            throw RPCError(code: .internal, message: "Too many requests for a single-request method")
        }
        return try ServerCallFailure.decode(bytes, with: deserializer)
    }
}
