package import RPCCore

/// A one-shot signal for tests: `wait()` returns once `signal()` was called.
package final class Signal: Sendable {
    private let queue = InboundQueue<Bool>()
    package init() {}
    package func signal() { queue.push(true) }
    package func wait() async { _ = try? await queue.next() }
}

/// A service whose methods wait for their task to be cancelled, and say so: `Wait`
/// (unary) at once, `WaitStreaming` (server streaming) after sending its request back.
/// As JSON: `POST /v1/probe/wait`, `/v1/probe/wait_streaming`.
package struct CancellationProbe: RPCJSONService {
    package static let method = MethodDescriptor(service: "t.Probe", method: "Wait")
    package static let streamingMethod = MethodDescriptor(service: "t.Probe", method: "WaitStreaming")
    package let started = Signal()
    package let cancelled = Signal()

    package init() {}

    package func registerMethods(with router: inout RPCRouter) {
        register(with: &router, format: .protobuf)
    }

    package func registerJSONMethods(with router: inout RPCRouter) {
        register(with: &router, format: .json)
    }

    private func register(with router: inout RPCRouter, format: MessageFormat) {
        let started = self.started, cancelled = self.cancelled
        router.registerUnary(Self.method, format: format, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) {
            _, _ in
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
