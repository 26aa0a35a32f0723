import Synchronization

/// The first host-level failure of an engine host (a journal that could not take a write), for
/// whoever must stop serving because of it: the service's health and its process (see
/// `ServiceRunner.addHost`). After it the host refuses every input until it is reopened, so the
/// failure is recorded once and never cleared.
package final class HostFailure: Sendable {
    private struct State {
        var error: EngineHostError?
        var waiters: [Int: CheckedContinuation<EngineHostError?, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// The failure, or nil while the host is healthy.
    package var error: EngineHostError? { state.withLock { $0.error } }

    func record(_ error: EngineHostError) {
        let waiters = state.withLock { state -> [CheckedContinuation<EngineHostError?, Never>] in
            guard state.error == nil else { return [] }
            state.error = error
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: error) }
    }

    /// Waits for the failure: returns it once there is one, or nil when the waiting task is
    /// cancelled first.
    package func wait() async -> EngineHostError? {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow: (EngineHostError?, Bool) = state.withLock { state in
                    if let error = state.error { return (error, true) }
                    if Task.isCancelled { return (nil, true) }
                    state.waiters[id] = continuation
                    return (nil, false)
                }
                if resumeNow.1 { continuation.resume(returning: resumeNow.0) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
