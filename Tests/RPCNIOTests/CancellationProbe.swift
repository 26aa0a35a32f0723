import RPCCore
import Synchronization

/// A one-shot signal for tests: `wait()` returns once `signal()` was called.
final class Signal: Sendable {
    private let queue = InboundQueue<Bool>()
    func signal() { queue.push(true) }
    func wait() async { _ = try? await queue.next() }
}

/// A service whose one method waits for its task to be cancelled, and says so.
struct CancellationProbe: RPCService {
    static let method = MethodDescriptor(service: "t.Probe", method: "Wait")
    let started = Signal()
    let cancelled = Signal()

    func registerMethods(with router: inout RPCRouter) {
        let started = self.started, cancelled = self.cancelled
        router.registerUnary(Self.method, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) { _, _ in
            started.signal()
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            cancelled.signal()
            throw CancellationError()
        }
    }
}
