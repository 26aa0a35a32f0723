import Synchronization

/// Lets a transport cancel the task that runs a call (a client's RST_STREAM, an expired
/// deadline, a dropped connection) without an extra task per call.
///
/// Invariants: the task handle is stored only while `run` executes its body, and is used
/// only under the lock, so it never outlives its task. A cancel that arrives before `run`
/// starts is remembered and cancels the task as soon as it registers.
public final class CancellationSlot: Sendable {
    private enum State {
        case idle
        case running(TaskHandle)
        case cancelled
        case done
    }

    /// `UnsafeCurrentTask` is not Sendable; the lock discipline above makes this use safe.
    private struct TaskHandle: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    private let state = Mutex(State.idle)

    public init() {}

    /// Runs `body` so that `cancel()` cancels the current task while it runs.
    public func run<R>(_ body: () async -> R) async -> R {
        withUnsafeCurrentTask { task in
            guard let task else { return }
            state.withLock { state in
                switch state {
                case .idle: state = .running(TaskHandle(task: task))
                case .cancelled: task.cancel()
                case .running, .done: break
                }
            }
        }
        let result = await body()
        state.withLock { $0 = .done }
        return result
    }

    /// Cancels the task running the call, now or as soon as it starts.
    public func cancel() {
        state.withLock { state in
            switch state {
            case .idle: state = .cancelled
            case .running(let handle): handle.task.cancel()
            case .cancelled, .done: break
            }
        }
    }
}
