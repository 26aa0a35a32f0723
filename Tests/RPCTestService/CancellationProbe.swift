public import RPCCore

/// A one-shot signal for tests: `wait()` returns once `signal()` was called.
public final class Signal: Sendable {
    private let queue = InboundQueue<Bool>()
    public init() {}
    public func signal() { queue.push(true) }
    public func wait() async { _ = try? await queue.next() }
}

/// A service whose one method waits for its task to be cancelled, and says so.
public struct CancellationProbe: RPCService {
    public static let method = MethodDescriptor(service: "t.Probe", method: "Wait")
    public let started = Signal()
    public let cancelled = Signal()

    public init() {}

    public func registerMethods(with router: inout RPCRouter) {
        let started = self.started, cancelled = self.cancelled
        router.registerUnary(Self.method, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) { _, _ in
            started.signal()
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            cancelled.signal()
            throw CancellationError()
        }
    }
}
