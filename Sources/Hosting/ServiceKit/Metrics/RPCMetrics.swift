package import CoreMetrics
package import RPCCore
import Synchronization

/// Per-method call counts and latency through swift-metrics:
///
/// - `grpc_server_handled_total{grpc_service, grpc_method}`: calls whose handler returned;
/// - `grpc_server_handling_seconds{grpc_service, grpc_method}`: from the call's arrival at
///   the server to its handler's return (a timer: a histogram in Prometheus);
/// - `grpc_server_abandoned_total{grpc_service, grpc_method, grpc_code}`: calls the
///   transport gave up on (client reset, deadline, closed connection).
///
/// The status a handler answered is not visible here (the transport writes it), so OK and
/// failed calls are counted together. Paths the router does not serve are counted under
/// `unknown`, so a client cannot make up labels.
package final class RPCMetrics: Sendable {
    private struct Instruments: Sendable {
        let handled: Counter
        let latency: Timer
        let labels: [(String, String)]
    }

    private let factory: any MetricsFactory
    private let served: Set<String>
    private let instruments = Mutex<[String: Instruments]>([:])

    /// - Parameter served: the paths the router serves (`RPCRouter.paths`).
    package init(factory: any MetricsFactory, served: [String]) {
        self.factory = factory
        self.served = Set(served)
    }

    /// Counts one finished call of `path` that took `duration`.
    package func record(path: String, duration: Duration, abandonment: RPCError?) {
        let instruments = self.instruments(for: path)
        instruments.handled.increment()
        instruments.latency.recordInterval(duration)
        if let abandonment {
            Counter(
                label: "grpc_server_abandoned_total",
                dimensions: instruments.labels + [("grpc_code", "\(abandonment.code)")], factory: factory
            )
            .increment()
        }
    }

    private func instruments(for path: String) -> Instruments {
        if let found = instruments.withLock({ $0[path] }) { return found }
        let key = served.contains(path) ? path : "unknown"
        let method = MethodDescriptor(path: key)
        let labels = [("grpc_service", method?.service ?? "unknown"), ("grpc_method", method?.method ?? "unknown")]
        let made = Instruments(
            handled: Counter(label: "grpc_server_handled_total", dimensions: labels, factory: factory),
            latency: Timer(label: "grpc_server_handling_seconds", dimensions: labels, factory: factory),
            labels: labels)
        // Unknown paths are not kept: each would take a slot for ever.
        if key == path { instruments.withLock { $0[path] = made } }
        return made
    }
}

extension Timer {
    fileprivate func recordInterval(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// A server transport that times each call its handler runs, for `RPCMetrics`.
package struct MeteredServerTransport: ServerTransport {
    package let base: any ServerTransport
    package let metrics: RPCMetrics

    package init(_ base: any ServerTransport, metrics: RPCMetrics) {
        self.base = base
        self.metrics = metrics
    }

    package func listen(_ handler: @escaping @Sendable (ServerStream) async -> Void) async throws {
        let metrics = self.metrics
        try await base.listen { stream in
            let start = ContinuousClock.now
            await handler(stream)
            metrics.record(path: stream.head.path, duration: .now - start, abandonment: stream.abandonment)
        }
    }

    package func beginGracefulShutdown() {
        base.beginGracefulShutdown()
    }
}
