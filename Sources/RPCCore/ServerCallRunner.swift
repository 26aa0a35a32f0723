/// Runs one server call: the body produces the response, the runner turns its outcome into
/// the final status and sends it, cancellable through the stream.
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

    /// The one request message of a unary or server-streaming call.
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
