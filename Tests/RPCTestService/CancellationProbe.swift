public import RPCCore

/// A one-shot signal for tests: `wait()` returns once `signal()` was called.
public final class Signal: Sendable {
    private let queue = InboundQueue<Bool>()
    public init() {}
    public func signal() { queue.push(true) }
    public func wait() async { _ = try? await queue.next() }
}

/// A service whose methods wait for their task to be cancelled, and say so: `Wait`
/// (unary) at once, `WaitStreaming` (server streaming) after sending its request back.
/// As JSON: `POST /v1/probe/wait`, `/v1/probe/wait_streaming`.
public struct CancellationProbe: RPCJSONService {
    public static let method = MethodDescriptor(service: "t.Probe", method: "Wait")
    public static let streamingMethod = MethodDescriptor(service: "t.Probe", method: "WaitStreaming")
    public let started = Signal()
    public let cancelled = Signal()

    public init() {}

    public func registerMethods(with router: inout RPCRouter) {
        register(with: &router, format: .protobuf)
    }

    public func registerJSONMethods(with router: inout RPCRouter) {
        register(with: &router, format: .json)
    }

    private func register(with router: inout RPCRouter, format: MessageFormat) {
        let started = self.started, cancelled = self.cancelled
        router.registerUnary(Self.method, format: format, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) { _, _ in
            started.signal()
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            cancelled.signal()
            throw CancellationError()
        }
        router.registerServerStreaming(
            Self.streamingMethod, format: format, deserializer: RawBytesCoder(), serializer: RawBytesCoder()
        ) { request, writer, _ in
            try await writer.write(request.message)
            started.signal()
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            cancelled.signal()
            throw CancellationError()
        }
    }
}
