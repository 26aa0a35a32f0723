import RPCCore
import Synchronization

/// Starts each call's task.
///
/// A call starts as an *immediate* task: it runs on the dispatching task's thread until
/// its first suspension, so a short call (most unary handlers) costs no trip through the
/// executor's queue and no thread wake-up. These tasks are unstructured, not children of
/// the transport's task group: a group's bookkeeping for each child (attaching and
/// detaching under the group's lock) was about a tenth of a small unary call's cost.
/// What the group gave is kept by hand: `CallCount` lets `listen` return only after the
/// last call has finished, and a call is cancelled through its `ServerStream` (reset,
/// deadline, closed connection) — the transport closes every connection when its
/// `listen` is cancelled.
///
/// Invariant: a handler that ran longer than `inlineLimit` before suspending (heavy
/// computation) turns immediate starts off for the next `backoffCalls` calls, which then
/// start as ordinary child tasks on other threads, so one slow handler cannot hold up
/// the start of the calls queued behind it for long. The clock is read once per start:
/// an immediate start is timed from the previous reading (`mark`), which the dispatching
/// task renews with `resumed()` whenever it waited for calls, so a wait is never taken
/// for a slow handler.
struct CallDispatcher {
    static let inlineLimit: Duration = .microseconds(200)
    static let backoffCalls = 256

    private var regularStartsLeft = 0
    private let clock = ContinuousClock()
    private var mark: ContinuousClock.Instant
    let running = CallCount()

    init() {
        mark = clock.now
    }

    /// The dispatching task waited for calls: what follows is timed from now.
    mutating func resumed() {
        mark = clock.now
    }

    mutating func start(
        _ stream: ServerStream, in group: inout DiscardingTaskGroup,
        _ handler: @escaping @Sendable (ServerStream) async -> Void
    ) {
        // The closures are written out here, not passed in, so that each call costs one
        // closure context and no reabstraction thunks.
        if regularStartsLeft > 0 {
            regularStartsLeft -= 1
            group.addTask { await handler(stream) }
            mark = clock.now
            return
        }
        let running = self.running
        running.increment()
        Task.immediate {
            await handler(stream)
            running.decrement()
        }
        let now = clock.now
        if mark.duration(to: now) > Self.inlineLimit {
            regularStartsLeft = Self.backoffCalls
        }
        mark = now
    }
}

/// The calls started outside the task group and not finished yet.
///
/// Invariant: `waiter` is resumed once, when the count is zero after `waitForZero` began.
final class CallCount: Sendable {
    private let count = Atomic<Int>(0)
    private let waiter = Mutex<(waiting: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

    func increment() { count.add(1, ordering: .relaxed) }

    func decrement() {
        // Only the last call's end takes the lock.
        if count.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { wakeIfDone() }
    }

    private func wakeIfDone() {
        let continuation = waiter.withLock { waiter -> CheckedContinuation<Void, Never>? in
            guard waiter.waiting, count.load(ordering: .acquiring) == 0 else { return nil }
            defer { waiter.continuation = nil }
            return waiter.continuation
        }
        continuation?.resume()
    }

    /// Returns once no call is running (no new ones may start).
    func waitForZero() async {
        await withCheckedContinuation { continuation in
            let doneAlready = waiter.withLock { waiter -> Bool in
                waiter.waiting = true
                if count.load(ordering: .acquiring) == 0 { return true }
                waiter.continuation = continuation
                return false
            }
            if doneAlready { continuation.resume() }
        }
    }
}
