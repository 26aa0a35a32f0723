import GlimpseMessages
package import RPCCore
import Synchronization

/// `grpc.testing.TestService` as grpc/grpc's interop-test-descriptions.md describes the
/// server: EmptyCall, UnaryCall, StreamingInputCall, StreamingOutputCall, FullDuplexCall,
/// HalfDuplexCall, Echo Status, Echo Metadata and `interval_us`. UnimplementedCall answers
/// UNIMPLEMENTED, as the description asks. Compression is not supported: a request that
/// expects a compressed request is refused with INVALID_ARGUMENT.
package struct InteropTestService: GrpcTesting.TestService.Handler {
    /// Outcomes of the unary calls (benchmarks read them: h2load cannot see grpc-status).
    package let counters: CallCounters

    package init(counters: CallCounters = CallCounters()) {
        self.counters = counters
    }

    static let echoInitial = "x-grpc-test-echo-initial"
    static let echoTrailing = "x-grpc-test-echo-trailing-bin"

    /// The metadata to echo: (initial, trailing).
    static func echoed(_ request: Metadata) -> (Metadata, Metadata) {
        var initial = Metadata()
        var trailing = Metadata()
        for value in request[stringValues: echoInitial] { initial.addString(value, forKey: echoInitial) }
        for value in request[binaryValues: echoTrailing] { trailing.addBinary(value, forKey: echoTrailing) }
        return (initial, trailing)
    }

    static func failIfAsked(_ status: GrpcTesting.EchoStatus?) throws {
        guard let status, status.code != 0 else { return }
        throw RPCError(code: StatusCode(wireValue: Int(status.code)), message: status.message)
    }

    static func payload(_ size: Int32, _ type: GrpcTesting.PayloadType) throws -> GrpcTesting.Payload {
        guard size >= 0 else { throw RPCError(code: .invalidArgument, message: "negative response size \(size)") }
        guard type == .compressable else {
            throw RPCError(code: .invalidArgument, message: "payload type \(type) is not supported")
        }
        return GrpcTesting.Payload(type: type, body: [UInt8](repeating: 0, count: Int(size)))
    }

    static func refuseCompressed(_ expect: GrpcTesting.BoolValue?) throws {
        if expect?.value == true {
            throw RPCError(code: .invalidArgument, message: "this server does not accept compressed requests")
        }
    }

    package func emptyCall(
        request: ServerRequest<GrpcTesting.Empty>, context: ServerContext
    ) async throws -> ServerResponse<GrpcTesting.Empty> {
        let (initial, trailing) = Self.echoed(request.metadata)
        counters.ok.add(1, ordering: .relaxed)
        return ServerResponse(message: GrpcTesting.Empty(), metadata: initial, trailingMetadata: trailing)
    }

    package func unaryCall(
        request: ServerRequest<GrpcTesting.SimpleRequest>, context: ServerContext
    ) async throws -> ServerResponse<GrpcTesting.SimpleResponse> {
        do {
            let response = try await answerUnary(request)
            counters.ok.add(1, ordering: .relaxed)
            return response
        } catch {
            counters.failed.add(1, ordering: .relaxed)
            throw error
        }
    }

    private func answerUnary(
        _ request: ServerRequest<GrpcTesting.SimpleRequest>
    ) async throws -> ServerResponse<GrpcTesting.SimpleResponse> {
        let (initial, trailing) = Self.echoed(request.metadata)
        let message = request.message
        do {
            try Self.refuseCompressed(message.expectCompressed)
            try Self.failIfAsked(message.responseStatus)
        } catch var error as RPCError {
            error.metadata.append(contentsOf: trailing)
            throw error
        }
        let response = GrpcTesting.SimpleResponse(payload: try Self.payload(message.responseSize, message.responseType))
        return ServerResponse(message: response, metadata: initial, trailingMetadata: trailing)
    }

    package func cacheableUnaryCall(
        request: ServerRequest<GrpcTesting.SimpleRequest>, context: ServerContext
    ) async throws -> ServerResponse<GrpcTesting.SimpleResponse> {
        let now = ContinuousClock.now
        let stamp = Array("\(now)".utf8)
        return ServerResponse(message: GrpcTesting.SimpleResponse(payload: GrpcTesting.Payload(body: stamp)))
    }

    package func streamingOutputCall(
        request: ServerRequest<GrpcTesting.StreamingOutputCallRequest>,
        response: ResponseWriter<GrpcTesting.StreamingOutputCallResponse>, context: ServerContext
    ) async throws -> Metadata {
        let (initial, trailing) = Self.echoed(request.metadata)
        response.setMetadata(initial)
        try Self.failIfAsked(request.message.responseStatus)
        try await Self.reply(to: request.message, response)
        return trailing
    }

    package func streamingInputCall(
        request: RequestStream<GrpcTesting.StreamingInputCallRequest>, context: ServerContext
    ) async throws -> ServerResponse<GrpcTesting.StreamingInputCallResponse> {
        let (initial, trailing) = Self.echoed(request.metadata)
        var total = 0
        for try await message in request {
            try Self.refuseCompressed(message.expectCompressed)
            total += message.payload?.body.count ?? 0
        }
        return ServerResponse(
            message: GrpcTesting.StreamingInputCallResponse(aggregatedPayloadSize: Int32(clamping: total)),
            metadata: initial, trailingMetadata: trailing)
    }

    package func fullDuplexCall(
        request: RequestStream<GrpcTesting.StreamingOutputCallRequest>,
        response: ResponseWriter<GrpcTesting.StreamingOutputCallResponse>, context: ServerContext
    ) async throws -> Metadata {
        let (initial, trailing) = Self.echoed(request.metadata)
        response.setMetadata(initial)
        do {
            for try await message in request {
                try Self.failIfAsked(message.responseStatus)
                try await Self.reply(to: message, response)
            }
        } catch var error as RPCError {
            error.metadata.append(contentsOf: trailing)
            throw error
        }
        return trailing
    }

    package func halfDuplexCall(
        request: RequestStream<GrpcTesting.StreamingOutputCallRequest>,
        response: ResponseWriter<GrpcTesting.StreamingOutputCallResponse>, context: ServerContext
    ) async throws -> Metadata {
        let (initial, trailing) = Self.echoed(request.metadata)
        response.setMetadata(initial)
        var buffered: [GrpcTesting.StreamingOutputCallRequest] = []
        for try await message in request { buffered.append(message) }
        for message in buffered {
            try Self.failIfAsked(message.responseStatus)
            try await Self.reply(to: message, response)
        }
        return trailing
    }

    package func unimplementedCall(
        request: ServerRequest<GrpcTesting.Empty>, context: ServerContext
    ) async throws -> ServerResponse<GrpcTesting.Empty> {
        throw RPCError(
            code: .unimplemented, message: "grpc.testing.TestService/UnimplementedCall is not implemented, by design")
    }

    /// One response per ResponseParameters, each after its `interval_us`.
    static func reply(
        to request: GrpcTesting.StreamingOutputCallRequest,
        _ writer: ResponseWriter<GrpcTesting.StreamingOutputCallResponse>
    ) async throws {
        for parameters in request.responseParameters {
            if parameters.intervalUs > 0 { try await Task.sleep(for: .microseconds(Int(parameters.intervalUs))) }
            let payload = try payload(parameters.size, request.responseType)
            try await writer.write(GrpcTesting.StreamingOutputCallResponse(payload: payload))
        }
    }
}
