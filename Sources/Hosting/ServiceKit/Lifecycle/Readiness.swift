import GlimpseMessages
import Synchronization

/// SERVING only between "ready" and shutdown or a failure: a service that says it is ready
/// after shutdown began (its store opened late), or after its store failed, stays NOT_SERVING.
final class Readiness: Sendable {
    private enum Phase { case starting, ready, failed, shuttingDown }
    private let phase = Mutex(Phase.starting)
    let names: [String]

    init(names: [String]) {
        self.names = names
    }

    func markReady(_ health: HealthStatusStore) {
        let go = phase.withLock { phase -> Bool in
            guard phase == .starting else { return false }
            phase = .ready
            return true
        }
        guard go else { return }
        for name in names { health.set(.serving, for: name) }
    }

    /// NOT_SERVING for good: the service cannot do its work (its journal failed).
    func markFailed(_ health: HealthStatusStore) {
        phase.withLock { if $0 != .shuttingDown { $0 = .failed } }
        for name in names { health.set(.notServing, for: name) }
    }

    func shutDown(_ health: HealthStatusStore) {
        phase.withLock { $0 = .shuttingDown }
        health.shutDown()
    }

    var isReady: Bool { phase.withLock { $0 == .ready } }
}
