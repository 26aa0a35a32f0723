package import RPCCore
import Synchronization

/// Raw-bytes methods for all four call types, steered by request metadata, for tests and
/// real peers (grpcio) alike. Service `glimpse.test.Steered`:
///
/// | method | behaviour |
/// |---|---|
/// | `Unary` | replies with the request (or `x-reply-size` bytes) |
/// | `ServerStream` | `x-reply-count` replies (default 1), each the request or `x-reply-size` bytes |
/// | `ClientStream` | replies with the total request bytes, as ASCII decimal |
/// | `Bidi` | echoes every request as it arrives |
///
/// Metadata that steers every method:
/// - `x-sleep-ms: N` sleeps first (cancellable: a deadline or a client cancel ends it);
/// - `x-fail-code: N` ends with status N, message `x-fail-message` or the UTF-8 of
///   `x-fail-message-bin` (`x-fail-message-repeat: R` times over); with `x-fail-after: K`
///   (streaming) after K replies;
/// - `x-pad-initial: N`, `x-pad-trailing: N` add an `x-padding` entry of N bytes to the
///   initial or trailing metadata;
/// - keys starting `x-echo-initial` come back in the initial metadata, keys starting
///   `x-echo-trailing` in the trailing metadata (`-bin` included).
///
/// As JSON (`registerJSONMethods`), `Unary` and `ServerStream` take and give raw bytes as
/// well (the request body as it came): `POST /v1/steered/unary`, `/v1/steered/server_stream`.
package struct SteeredTestService: RPCJSONService {
    package static let serviceName = "glimpse.test.Steered"
    package static let unary = MethodDescriptor(service: serviceName, method: "Unary")
    package static let serverStream = MethodDescriptor(service: serviceName, method: "ServerStream")
    package static let clientStream = MethodDescriptor(service: serviceName, method: "ClientStream")
    package static let bidi = MethodDescriptor(service: serviceName, method: "Bidi")

    package let counters: StatusCounters

    package init(counters: StatusCounters = StatusCounters()) {
        self.counters = counters
    }

    package func registerMethods(with router: inout RPCRouter) {
        registerSingleRequestMethods(with: &router, format: .protobuf)
        registerStreamingRequestMethods(with: &router)
    }

    package func registerJSONMethods(with router: inout RPCRouter) {
        registerSingleRequestMethods(with: &router, format: .json)
    }

    private func registerSingleRequestMethods(with router: inout RPCRouter, format: MessageFormat) {
        let raw = RawBytesCoder()
        let counters = self.counters
        router.registerUnary(Self.unary, format: format, deserializer: raw, serializer: raw) { request, context in
            try await counters.count {
                let steer = Steering(request.metadata)
                try await steer.sleep()
                try steer.failIfAsked(afterReplies: 0)
                return ServerResponse(
                    message: steer.reply(to: request.message),
                    metadata: steer.initialEcho, trailingMetadata: steer.trailingEcho)
            }
        }
        router.registerServerStreaming(Self.serverStream, format: format, deserializer: raw, serializer: raw) {
            request, writer, context in
            try await counters.count {
                let steer = Steering(request.metadata)
                writer.setMetadata(steer.initialEcho)
                try await steer.sleep()
                for sent in 0..<steer.replyCount {
                    try steer.failIfAsked(afterReplies: sent)
                    try await writer.write(steer.reply(to: request.message))
                }
                try steer.failIfAsked(afterReplies: steer.replyCount)
                return steer.trailingEcho
            }
        }
    }

    private func registerStreamingRequestMethods(with router: inout RPCRouter) {
        let raw = RawBytesCoder()
        let counters = self.counters
        router.registerClientStreaming(Self.clientStream, deserializer: raw, serializer: raw) { requests, context in
            try await counters.count {
                let steer = Steering(requests.metadata)
                try await steer.sleep()
                var total = 0
                for try await message in requests { total += message.count }
                try steer.failIfAsked(afterReplies: 0)
                return ServerResponse(
                    message: Array(String(total).utf8), metadata: steer.initialEcho,
                    trailingMetadata: steer.trailingEcho)
            }
        }
        router.registerBidirectionalStreaming(Self.bidi, deserializer: raw, serializer: raw) {
            requests, writer, context in
            try await counters.count {
                let steer = Steering(requests.metadata)
                writer.setMetadata(steer.initialEcho)
                try await steer.sleep()
                var sent = 0
                for try await message in requests {
                    try steer.failIfAsked(afterReplies: sent)
                    try await writer.write(steer.reply(to: message))
                    sent += 1
                }
                try steer.failIfAsked(afterReplies: sent)
                return steer.trailingEcho
            }
        }
    }
}

/// Counts the statuses the service ended calls with (h2load cannot see grpc-status).
package final class StatusCounters: Sendable {
    private let ok = Atomic<Int>(0)
    private let failed = Atomic<Int>(0)
    private let started = Atomic<Int>(0)

    package init() {}

    package var okCount: Int { ok.load(ordering: .relaxed) }
    package var failedCount: Int { failed.load(ordering: .relaxed) }
    /// Calls whose handler has begun (a test waits for this rather than for a guessed time).
    package var startedCount: Int { started.load(ordering: .acquiring) }

    func count<R>(_ body: () async throws -> R) async throws -> R {
        started.add(1, ordering: .releasing)
        do {
            let result = try await body()
            ok.add(1, ordering: .relaxed)
            return result
        } catch {
            failed.add(1, ordering: .relaxed)
            throw error
        }
    }
}
