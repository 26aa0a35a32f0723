import Synchronization

/// Handlers wait here until the test opens the gate, or (`opensAt`) until that many have
/// arrived: a barrier that only opens if they all run at once. The test can wait for a
/// number of handlers to have arrived. A waiting handler whose task is cancelled stops waiting (so
/// a failed test cannot leave the server unable to stop).
final class Gate: Sendable {
    private struct State {
        var open = false
        var arrived = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var next = 0
        var arrivalWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let opensAt: Int?

    init(opensAt: Int? = nil) {
        self.opensAt = opensAt
    }

    /// Arrives, and waits until the gate is open.
    func pass() async {
        let token = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (resumeNow, others) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    state.arrived += 1
                    var others = state.arrivalWatchers.filter { $0.count <= state.arrived }.map(\.continuation)
                    state.arrivalWatchers.removeAll { $0.count <= state.arrived }
                    if let opensAt, state.arrived >= opensAt, !state.open {
                        state.open = true
                        others += state.waiters.values
                        state.waiters.removeAll()
                    }
                    if state.open || Task.isCancelled { return (true, others) }
                    state.waiters[token] = continuation
                    return (false, others)
                }
                for other in others { other.resume() }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: token) }?.resume()
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `count` handlers have arrived (open or not).
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.arrived >= count { return true }
                state.arrivalWatchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    var arrived: Int { state.withLock { $0.arrived } }
}
