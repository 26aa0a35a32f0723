import Synchronization

/// Wakes a loop that waits for something to do: the host's timer loop when its deadline may
/// have moved (an input arrived, the host closed), the gateway's loops when there is work
/// for them, instead of each polling on a timer (thousands of devices' timers are a
/// process's whole CPU). A signal with nobody waiting is kept for the next wait, so none is
/// lost; a spurious wake-up only makes the loop look again. One waiter at a time.
package final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    package init() {}

    package func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns on a signal, when `timeout` (if any) has passed, or when the task is cancelled.
    package func wait(timeout: Duration?) async {
        guard let timeout else { return await wait() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.wait() }
            await group.next()
            group.cancelAll()
        }
    }

    private func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            signal()
        }
    }
}
