import Synchronization

/// One incoming call as a transport hands it to the server runtime: the request head, the
/// request messages, credit for response bytes, and the cancellation of the call's task,
/// all in one object under one lock, because a transport makes one of these for every
/// call (at hundreds of thousands of calls a second, each object and lock counts).
///
/// A transport subclasses it and overrides the three sending methods; its own per-stream
/// bookkeeping may live in the subclass too.
///
/// The transport guarantees: the request messages end (`finishRequests`) or fail
/// (`abandon`); on an expired deadline it answers DEADLINE_EXCEEDED itself and abandons
/// the call, which cancels the handler's task; a reset by the client does the same.
///
/// Invariants:
/// - At most one task consumes the requests and at most one writes responses (a call's
///   handler); each waits alone and is resumed exactly once.
/// - `outbound.pending` is the response bytes written minus those the transport released;
///   a writer that finds more than `highWatermark` pending waits until it is back at
///   `lowWatermark` or less, or the call is abandoned (`outbound.closed`).
/// - The task is cancelled by `abandon` whether it is running, or starts afterwards; its
///   handle is used only under `task`'s lock, and never after `runCancellable` returns.
open class ServerStream: @unchecked Sendable {
    // Unchecked: the subclass's own state belongs to its transport (e.g. an event loop's
    // thread); everything here is immutable or under `shared`'s lock.
    public let head: RequestHead
    /// The deadline in a form of fixed size (see `FixedInstant`).
    package let fixedDeadline: FixedInstant?
    public let remotePeer: String
    public let eagerAllowance: Int
    public let highWatermark: Int
    public let lowWatermark: Int

    private enum TaskState {
        case idle
        case running(TaskHandle)
        case cancelled
        case done
    }

    /// `UnsafeCurrentTask` is not Sendable; it is stored only while `runCancellable` runs
    /// its body and used only under the lock, so it never outlives its task.
    private struct TaskHandle: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    private struct Shared {
        var requests = InboundBuffer<[UInt8]>()
        var requestWaiter: UnsafeContinuation<[UInt8]?, any Error>?
        var outbound = OutboundCredit()
    }

    private let shared = Mutex(Shared())
    /// A lock of its own (stored inline, not a separate object): cancelling a task runs its
    /// cancellation handlers at once, and those take `shared`.
    private let task = Mutex(TaskState.idle)

    /// - Parameters:
    ///   - eagerAllowance: request bytes that may wait unread before pushes become owed
    ///     (their flow-control credit is given back only when the handler takes them).
    ///   - highWatermark, lowWatermark: response bytes a writer may have pending.
    public init(
        head: RequestHead, deadline: ContinuousClock.Instant?, remotePeer: String,
        eagerAllowance: Int = 64 * 1024, highWatermark: Int = 256 * 1024, lowWatermark: Int = 64 * 1024
    ) {
        self.head = head
        self.fixedDeadline = deadline.map(FixedInstant.init)
        self.remotePeer = remotePeer
        self.eagerAllowance = eagerAllowance
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
    }

    /// For transports of this package: the deadline as `head.timeout` from now.
    package init(
        head: RequestHead, remotePeer: String, eagerAllowance: Int, highWatermark: Int, lowWatermark: Int
    ) {
        self.head = head
        self.fixedDeadline = head.timeout.map(FixedInstant.after)
        self.remotePeer = remotePeer
        self.eagerAllowance = eagerAllowance
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
    }

    /// When the client stops waiting, if it said.
    public var deadline: ContinuousClock.Instant? { fixedDeadline?.instant }

    // MARK: Sending (transports override these)

    /// Queues one response part. With `flush: false` the transport may hold the part until
    /// a later one is written with `flush: true`. Waits while too much is queued; throws
    /// once the call is abandoned (writes after the status are ignored).
    open func write(_ part: RPCResponsePart, flush: Bool) async throws {
        preconditionFailure("\(type(of: self)) must override write(_:flush:)")
    }

    /// Queues one part without waiting: for the parts whose size is bounded and that end
    /// a call (initial metadata, a single response message, the status). Ignored once the
    /// call is over.
    open func send(_ part: RPCResponsePart, flush: Bool) {
        preconditionFailure("\(type(of: self)) must override send(_:flush:)")
    }

    /// A whole single-message response (metadata, message, OK and trailers) in one go.
    open func sendSingleResponse(metadata: Metadata, message: [UInt8], trailers: Metadata) {
        send(.metadata(metadata), flush: false)
        send(.message(message), flush: false)
        send(.status(.ok, trailers), flush: true)
    }

    /// The handler took request bytes whose flow-control credit was held back: the
    /// transport gives it to the peer now. Called outside the lock, on the handler's task.
    open func owedRequestBytesTaken(_ bytes: Int) {}

    // MARK: Requests, for the transport

    /// Queues a request message standing for `bytes` of flow-controlled input. Returns
    /// true when those bytes may be released to the peer now, false when they are owed
    /// until the handler takes the message (`owedRequestBytesTaken`).
    @discardableResult
    public final func pushRequest(_ message: [UInt8], bytes: Int) -> Bool {
        let outcome = shared.withLock { shared -> (waiter: UnsafeContinuation<[UInt8]?, any Error>?, owed: Bool) in
            guard shared.requests.end == nil else { return (nil, false) }
            if let waiter = shared.requestWaiter {
                shared.requestWaiter = nil
                return (waiter, false)
            }
            return (nil, shared.requests.append(message, bytes: bytes, eagerAllowance: eagerAllowance))
        }
        outcome.waiter?.resume(returning: message)
        return !outcome.owed
    }

    /// The client half-closed: the handler sees the end after the queued messages.
    public final func finishRequests() {
        let waiter = shared.withLock { shared -> UnsafeContinuation<[UInt8]?, any Error>? in
            guard shared.requests.end == nil else { return nil }
            shared.requests.end = .finished
            defer { shared.requestWaiter = nil }
            return shared.requestWaiter
        }
        waiter?.resume(returning: nil)
    }

    /// The call is over for the handler (reset, expired deadline, closed connection, bad
    /// request): reading fails with `error` after the queued messages, a waiting or later
    /// writer fails with it, and the handler's task is cancelled.
    public final func abandon(_ error: RPCError) {
        endForHandler(error)
        task.withLock { task in
            switch task {
            case .idle: task = .cancelled
            // Under the lock: the handle is valid only while `.running`.
            case .running(let handle): handle.task.cancel()
            case .cancelled, .done: break
            }
        }
    }

    /// Reading fails with `error` after the queued messages; writing fails with it. (What
    /// the cancellation handlers of the waits do: they run inside `task`'s lock when the
    /// cancel comes from `abandon`.)
    private func endForHandler(_ error: RPCError) {
        let (reader, writer) = shared.withLock { shared in
            var reader: UnsafeContinuation<[UInt8]?, any Error>?
            if shared.requests.end == nil {
                shared.requests.end = .failed(error)
                reader = shared.requestWaiter
                shared.requestWaiter = nil
            }
            let writer = shared.outbound.close(error)
            return (reader, writer)
        }
        reader?.resume(throwing: error)
        writer?.resume(throwing: error)
    }

    // MARK: Requests, for the handler

    /// Without waiting: the only request of a call whose requests have ended, or why not.
    public final func takeSingleRequestIfComplete() -> SingleOutcome<[UInt8]> {
        let (outcome, owed) = shared.withLock { $0.requests.takeSingleIfComplete() }
        if owed > 0 { owedRequestBytesTaken(owed) }
        return outcome
    }

    /// The next request message; nil at the end; throws the error the call failed with.
    public final func nextRequest() async throws -> [UInt8]? {
        switch shared.withLock({ $0.requests.take() }) {
        case .element(let message, let owed):
            if owed > 0 { owedRequestBytesTaken(owed) }
            return message
        case .end(let end):
            return try InboundBuffer<[UInt8]>.deliver(end)
        case .empty:
            break
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let taken = shared.withLock { shared -> InboundBuffer<[UInt8]>.Taken in
                    let taken = shared.requests.take()
                    if case .empty = taken { shared.requestWaiter = continuation }
                    return taken
                }
                switch taken {
                case .element(let message, let owed):
                    if owed > 0 { owedRequestBytesTaken(owed) }
                    continuation.resume(returning: message)
                case .end(.finished): continuation.resume(returning: nil)
                case .end(.failed(let error)): continuation.resume(throwing: error)
                case .empty: break
                }
            }
        } onCancel: {
            endForHandler(RPCError(code: .cancelled, message: "The call's task was cancelled"))
        }
    }

    // MARK: Response credit

    /// Counts `bytes` of response as pending and waits while too much is; `beforeWaiting`
    /// runs first when it must wait (a writer that held parts back must send them now).
    public final func reserveOutbound(_ bytes: Int, beforeWaiting: () -> Void = {}) async throws {
        let mustWait = try shared.withLock { shared throws(RPCError) in
            try shared.outbound.add(bytes, highWatermark: highWatermark)
        }
        guard mustWait else { return }
        beforeWaiting()
        try await OutboundCredit.waitForRoom { writer in
            shared.withLock { $0.outbound.park(writer, lowWatermark: lowWatermark) }
        } onCancel: {
            endForHandler(RPCError(code: .cancelled, message: "The call's task was cancelled"))
        }
    }

    /// The transport has handed `bytes` of the pending response to the wire.
    public final func releaseOutbound(_ bytes: Int) {
        shared.withLock { $0.outbound.release(bytes, lowWatermark: lowWatermark) }?.resume()
    }

    /// The error the call was abandoned with, if it was.
    public final var abandonment: RPCError? { shared.withLock { $0.outbound.closed } }

    // MARK: Cancellation

    /// Runs `body` so that `abandon` cancels the current task while it runs (or at once,
    /// if the call was abandoned before).
    public final func runCancellable<R>(_ body: () async -> R) async -> R {
        enterHandlerTask()
        let result = await body()
        leaveHandlerTask()
        return result
    }

    /// From here until `leaveHandlerTask`, `abandon` cancels the current task (at once, if
    /// the call was abandoned before). What `runCancellable` does, without a closure: for a
    /// runner that wants no extra async frame around the handler.
    public final func enterHandlerTask() {
        withUnsafeCurrentTask { current in
            guard let current else { return }
            task.withLock { task in
                switch task {
                case .idle: task = .running(TaskHandle(task: current))
                case .cancelled: current.cancel()
                case .running, .done: break
                }
            }
        }
    }

    /// The handler is done: `abandon` no longer touches its task.
    public final func leaveHandlerTask() {
        task.withLock { $0 = .done }
    }
}
