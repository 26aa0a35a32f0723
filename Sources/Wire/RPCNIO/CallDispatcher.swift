import RPCCore
import Synchronization

/// Starts the calls' tasks.
///
/// The calls that arrived together (a `CallBatch`) share an *immediate* task: it runs on the
/// dispatching task's thread, one call after another, until a call suspends. A short call
/// (most unary handlers) thus costs no task of its own, no trip through the executor's
/// queue and no thread wake-up: creating, starting and destroying a task was about a
/// quarter of a small unary call's cost on the handler's side. When a call suspends, the
/// immediate start returns with calls left in the batch, and the next task takes them over;
/// the suspended call, once resumed, goes on taking what is left too. These tasks are
/// unstructured, not children of the transport's task group (a group's bookkeeping for
/// each child was about a tenth of a small call's cost); `CallCount` lets `listen` return
/// only after the last one has finished.
///
/// Cancellation stays per call: a call is cancelled through its `ServerStream`, which
/// cancels the task running it (reset, deadline, closed connection). A task's cancellation
/// cannot be undone, so a task whose call was cancelled runs no further call: it hands the
/// rest of its batch to a fresh task.
///
/// Invariant: a batch that ran longer than `inlineLimit` before its task suspended or ended
/// (heavy computation) turns immediate starts off for the next `backoffCalls` calls, which
/// then start as ordinary child tasks on other threads, so one slow handler cannot hold up
/// the calls queued behind it for long. The clock is read once per batch: a batch is timed
/// from the previous reading (`mark`), which the dispatching task renews with `resumed()`
/// whenever it waited for calls, so a wait is never taken for a slow handler.
struct CallDispatcher {
    static let inlineLimit: Duration = .microseconds(200)
    static let backoffCalls = 256

    private var regularStartsLeft = 0
    private let clock = ContinuousClock()
    private var mark: ContinuousClock.Instant
    let running: CallCount
    /// Where the calls started off this thread run (the handler executor).
    private let executor: (any TaskExecutor)?

    init(running: CallCount = CallCount(), executor: (any TaskExecutor)? = nil) {
        self.running = running
        self.executor = executor
        mark = clock.now
    }

    /// The dispatching task waited for calls: what follows is timed from now.
    mutating func resumed() {
        mark = clock.now
    }

    mutating func start(_ batch: CallBatch, _ handler: @escaping @Sendable (ServerStream) async -> Void) {
        if regularStartsLeft > 0 {
            // A task each, unstructured as the immediate ones: a task group's bookkeeping is
            // linear in its children (the runtime walks them to add and to remove one), and
            // a service's long-lived streams (the gateway's watch of each of 10,000 devices)
            // would make every call that came after them pay for them all.
            let running = self.running
            while let stream = batch.take() {
                regularStartsLeft -= 1
                running.increment()
                Task(executorPreference: executor) {
                    await handler(stream)
                    running.decrement()
                }
            }
            mark = clock.now
            return
        }
        Self.runImmediately(batch, handler, running)
        let now = clock.now
        if mark.duration(to: now) > Self.inlineLimit {
            regularStartsLeft = Self.backoffCalls
        }
        mark = now
    }

    /// Runs `batch` on this thread in immediate tasks (preferring `executor`), until every
    /// call of it has started: each task runs calls until one suspends, then the next one
    /// takes the rest.
    static func runImmediately(
        _ batch: CallBatch, _ handler: @escaping @Sendable (ServerStream) async -> Void, _ running: CallCount,
        executor: (any TaskExecutor)? = nil
    ) {
        repeat {
            running.increment()
            Task.immediate(executorPreference: executor) {
                await run(batch, handler, running, executor: executor)
                running.decrement()
            }
        } while !batch.isExhausted
    }

    /// Runs calls of `batch` until none is left, or until one was cancelled (the rest then
    /// go on in a fresh task, preferring `executor`).
    static func run(
        _ batch: CallBatch, _ handler: @escaping @Sendable (ServerStream) async -> Void, _ running: CallCount,
        executor: (any TaskExecutor)? = nil
    ) async {
        while let stream = batch.take() {
            await handler(stream)
            if Task.isCancelled {
                guard !batch.isExhausted else { return }
                running.increment()
                Task(executorPreference: executor) {
                    await run(batch, handler, running, executor: executor)
                    running.decrement()
                }
                return
            }
        }
    }
}

/// Starts the calls a connection opened during a read burst right there, on its event loop
/// (`ServerConnectionHandler.channelReadComplete`), in `CallBatch`es run by immediate tasks
/// preferring the handler executor: a call whose handler does not suspend (a unary call
/// answered from memory) goes from request to response without leaving the loop — no wake
/// of a dispatching task, no hop of its response back through the mailbox's wake-up. A
/// call that suspends goes on, when resumed, on the handler executor (and takes the calls
/// left in its batch there, as with `CallDispatcher`).
///
/// Invariant: as with `CallDispatcher`, a pass that ran longer than `limit` (a handler
/// computing on the loop holds up every connection of that loop) sends the next
/// `backoffCalls` calls of every loop to the transport's queue, where the dispatcher starts
/// them off the loops; the rest of that pass's calls go there too.
final class LoopCallStarter: Sendable {
    private let handler: @Sendable (ServerStream) async -> Void
    private let executor: (any TaskExecutor)?
    private let queue: InboundQueue<ServerStream>
    let running: CallCount
    private let limit: Duration
    private let queuedStartsLeft = Atomic<Int>(0)

    init(
        queue: InboundQueue<ServerStream>, running: CallCount, executor: (any TaskExecutor)?,
        limit: Duration = CallDispatcher.inlineLimit, handler: @escaping @Sendable (ServerStream) async -> Void
    ) {
        self.queue = queue
        self.running = running
        self.executor = executor
        self.limit = limit
        self.handler = handler
    }

    /// On an event loop: starts `streams` (emptied, its storage kept). Returns whether any
    /// call ran here, so that the connection drains what they sent before its next write.
    func start(_ streams: inout [ServerStream]) -> Bool {
        guard !streams.isEmpty else { return false }
        if queuedStartsLeft.load(ordering: .relaxed) > 0 {
            queuedStartsLeft.subtract(streams.count, ordering: .relaxed)
            queue.push(contentsOf: &streams)
            return false
        }
        let clock = ContinuousClock()
        let began = clock.now
        var start = 0
        while start < streams.count {
            let end = min(start + CallBatch.maximumCount, streams.count)
            CallDispatcher.runImmediately(CallBatch(streams, start..<end), handler, running, executor: executor)
            start = end
            if start < streams.count, began.duration(to: clock.now) > limit { break }
        }
        if began.duration(to: clock.now) > limit {
            queuedStartsLeft.store(CallDispatcher.backoffCalls, ordering: .relaxed)
        }
        if start < streams.count {
            var rest = Array(streams[start...])
            queue.push(contentsOf: &rest)
        }
        streams.removeAll(keepingCapacity: true)
        return true
    }
}

/// Calls taken from the queue together, each taken once by whichever task gets to it
/// first. A taken stream leaves the batch at once, so a long call does not keep the
/// finished ones around.
///
/// Invariant: slot `i` is read and cleared only by the taker that drew index `i` from
/// `taken`, so no two threads touch a slot.
final class CallBatch: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<ServerStream?>
    private let taken = Atomic<Int>(0)

    /// At most this many calls share a batch: a batch of small calls stays far below
    /// `CallDispatcher.inlineLimit`, so that only a slow call trips it.
    static let maximumCount = 16

    /// The streams of `streams[range]`.
    init(_ streams: [ServerStream], _ range: Range<Int>) {
        slots = .allocate(capacity: range.count)
        for (i, stream) in streams[range].enumerated() { (slots.baseAddress! + i).initialize(to: stream) }
    }

    deinit {
        slots.baseAddress!.deinitialize(count: slots.count)
        slots.deallocate()
    }

    /// The next call nobody has taken, or nil when all are taken.
    func take() -> ServerStream? {
        let index = taken.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < slots.count else { return nil }
        return slots[index].take()
    }

    var isExhausted: Bool { taken.load(ordering: .relaxed) >= slots.count }
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
