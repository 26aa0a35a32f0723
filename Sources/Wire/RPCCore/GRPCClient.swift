/// Makes calls over a client transport. Non-OK statuses are thrown as `RPCError`; cancelling
/// the calling task cancels the call (RST_STREAM CANCEL on HTTP/2).
///
///     try await withThrowingDiscardingTaskGroup { group in
///         group.addTask { try await client.run() }
///         let reply = try await client.unary(request: ..., method: ..., serializer: ..., deserializer: ...)
///         client.beginGracefulShutdown()
///     }
public struct GRPCClient: Sendable {
    public let transport: any ClientTransport

    public init(transport: any ClientTransport) {
        self.transport = transport
    }

    /// Keeps the transport's connections; returns after `beginGracefulShutdown()` once
    /// they are closed.
    public func run() async throws { try await transport.run() }

    public func beginGracefulShutdown() { transport.beginGracefulShutdown() }

    public func unary<Request: Sendable, Response: Sendable>(
        request: ClientRequest<Request>, method: MethodDescriptor,
        serializer: some MessageSerializer<Request>, deserializer: some MessageDeserializer<Response>,
        options: CallOptions = .defaults
    ) async throws -> ClientResponse<Response> {
        let bytes = try Self.serialize(request.message, serializer)
        let head = ClientRequestHead(method: method, metadata: request.metadata, timeout: options.effectiveTimeout)
        var attempts = 1
        while true {
            let stream = try await transport.openStream(head)
            do {
                return try await Self.withCancellation(of: stream) {
                    try await Self.sendOnly(bytes, on: stream)
                    return try await Self.readSingleResponse(stream, deserializer)
                }
            } catch let error as RPCError where attempts < RequestNotSent.maximumAttempts && RequestNotSent.marks(error)
            {
                attempts += 1  // the request never left: again, on a new connection
            }
        }
    }

    public func serverStreaming<Request: Sendable, Response: Sendable, Result: Sendable>(
        request: ClientRequest<Request>, method: MethodDescriptor,
        serializer: some MessageSerializer<Request>, deserializer: some MessageDeserializer<Response>,
        options: CallOptions = .defaults,
        onResponse: (ResponseStream<Response>) async throws -> Result
    ) async throws -> Result {
        let bytes = try Self.serialize(request.message, serializer)
        let stream = try await transport.openStream(
            ClientRequestHead(method: method, metadata: request.metadata, timeout: options.effectiveTimeout))
        return try await Self.withCancellation(of: stream) {
            try await Self.sendOnly(bytes, on: stream)
            let responses = ResponseStream(inbound: stream.inbound, deserializer: deserializer)
            let result = try await onResponse(responses)
            // Left before the end: the server need not go on producing.
            if responses.finalStatus == nil { stream.outbound.cancel() }
            return result
        }
    }

    public func clientStreaming<Request: Sendable, Response: Sendable>(
        metadata: Metadata = Metadata(), method: MethodDescriptor,
        serializer: some MessageSerializer<Request>, deserializer: some MessageDeserializer<Response>,
        options: CallOptions = .defaults,
        requestProducer: (RequestWriter<Request>) async throws -> Void
    ) async throws -> ClientResponse<Response> {
        let stream = try await transport.openStream(
            ClientRequestHead(method: method, metadata: metadata, timeout: options.effectiveTimeout))
        return try await Self.withCancellation(of: stream) {
            stream.outbound.flush()
            do {
                try await requestProducer(RequestWriter(outbound: stream.outbound, serializer: serializer))
                stream.outbound.finish()
            } catch  where stream.outbound.isClosed {
                // The server ended the call before the requests did: its status is the outcome.
            }
            return try await Self.readSingleResponse(stream, deserializer)
        }
    }

    /// Requests are produced in a child task while `onResponse` reads the responses.
    public func bidirectionalStreaming<Request: Sendable, Response: Sendable, Result: Sendable>(
        metadata: Metadata = Metadata(), method: MethodDescriptor,
        serializer: some MessageSerializer<Request>, deserializer: some MessageDeserializer<Response>,
        options: CallOptions = .defaults,
        requestProducer: @escaping @Sendable (RequestWriter<Request>) async throws -> Void,
        onResponse: (ResponseStream<Response>) async throws -> Result
    ) async throws -> Result {
        let stream = try await transport.openStream(
            ClientRequestHead(method: method, metadata: metadata, timeout: options.effectiveTimeout))
        let writer = RequestWriter(outbound: stream.outbound, serializer: serializer)
        return try await Self.withCancellation(of: stream) {
            stream.outbound.flush()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        try await requestProducer(writer)
                        stream.outbound.finish()
                    } catch  where stream.outbound.isClosed {
                        // The call is over; the responses carry its outcome.
                    } catch {
                        stream.outbound.cancel()
                        throw error
                    }
                }
                let responses = ResponseStream(inbound: stream.inbound, deserializer: deserializer)
                do {
                    let result = try await onResponse(responses)
                    if responses.finalStatus == nil { stream.outbound.cancel() }
                    // The call is over once the responses are: stop a producer still going.
                    group.cancelAll()
                    try? await group.waitForAll()
                    return result
                } catch {
                    stream.outbound.cancel()
                    group.cancelAll()
                    throw error
                }
            }
        }
    }

    // MARK: Shared steps

    /// Sends the one request of a unary or server-streaming call. A server may answer
    /// (and close the call) while the request is still being counted against flow
    /// control; then the write fails, but the call's outcome is the server's status,
    /// which the response side reads, exactly as for the streaming calls.
    static func sendOnly(_ bytes: [UInt8], on stream: ClientStream) async throws {
        do {
            try await stream.outbound.write(bytes, endStream: true)
        } catch  where stream.outbound.isClosed {
            // The server ended the call: its status is the outcome.
        }
    }

    static func serialize<Message>(_ message: Message, _ serializer: some MessageSerializer<Message>) throws -> [UInt8]
    {
        do {
            return try serializer.serialize(message)
        } catch {
            throw RPCError(code: .internal, message: "Failed to serialize the request: \(error)")
        }
    }

    /// Runs `body`; a cancelled task or an early exit resets the call.
    static func withCancellation<R>(of stream: ClientStream, _ body: () async throws -> R) async throws -> R {
        do {
            let result = try await withTaskCancellationHandler {
                try await body()
            } onCancel: {
                stream.outbound.cancel()
            }
            return result
        } catch {
            stream.outbound.cancel()
            throw error
        }
    }

    static func readSingleResponse<Response>(
        _ stream: ClientStream, _ deserializer: some MessageDeserializer<Response>
    ) async throws -> ClientResponse<Response> {
        var metadata = Metadata()
        var message: [UInt8]?
        while let part = try await stream.inbound.next() {
            switch part {
            case .metadata(let received):
                metadata = received
            case .message(let bytes):
                if message != nil {
                    throw RPCError(code: .internal, message: "More than one response for a single-response method")
                }
                message = bytes
            case .status(let status, let trailers):
                guard status.code == .ok else { throw RPCError(status: status, metadata: trailers) }
                guard let message else {
                    throw RPCError(code: .internal, message: "No response for a single-response method")
                }
                let decoded: Response
                do {
                    decoded = try deserializer.deserialize(message)
                } catch {
                    throw RPCError(code: .internal, message: "Failed to deserialize the response: \(error)")
                }
                return ClientResponse(message: decoded, metadata: metadata, trailingMetadata: trailers)
            }
        }
        throw RPCError(code: .internal, message: "The call ended without a status")
    }
}

/// How a client sends the messages of a streaming call.
public struct RequestWriter<Message: Sendable>: Sendable {
    let outbound: any ClientStreamOutbound
    let serializer: any MessageSerializer<Message>

    /// Sends one message; waits while the server is not reading fast enough.
    public func write(_ message: Message) async throws {
        try await outbound.write(try GRPCClient.serialize(message, serializer), endStream: false)
    }
}
