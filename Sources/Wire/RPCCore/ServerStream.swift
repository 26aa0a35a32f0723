import Synchronization

/// One incoming call as a transport hands it to the server runtime: the request head, the
/// request messages, credit for response bytes, and the cancellation of the call's task,
/// all in one object under one lock, because a transport makes one of these for every
/// call (at hundreds of thousands of calls a second, each object and lock counts).
///
/// A transport subclasses it and overrides the three sending methods; its own per-stream
/// bookkeeping may live in the subclass too. A transport that counts the request bytes its
/// connection holds learns what the handler took through `requestBytesTaken`.
///
/// The transport guarantees: the request messages end (`finishRequests`) or fail
/// (`abandon`); on an expired deadline it answers DEADLINE_EXCEEDED itself and abandons
/// the call, which cancels the handler's task; a reset by the client does the same.
///
/// Invariants:
/// - At most one task consumes the requests and at most one writes responses (a call's
///   handler); each waits alone and is resumed exactly once.
/// - `unreportedTaken` is the bytes of queued requests the handler took and
///   `requestBytesTaken` has not reported yet: below `takenReportThreshold`, and zero
///   whenever the handler waits for a request.
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
    /// Bytes of taken requests `requestBytesTaken` reports at the latest (it reports too
    /// when owed bytes are taken, and when the handler starts to wait); `.max`: only owed
    /// bytes are reported.
    public let takenReportThreshold: Int
    /// The connection's budget for queued response bytes, shared by its streams (nil: the
    /// transport has none; the stream's own watermarks still apply).
    public let outboundBudget: OutboundBudget?

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
        var unreportedTaken = 0
        /// The transport asked to hear when the handler next waits for a request.
        var waitNoticeWanted = false
        /// Room of the connection's outbound budget the handler took for its next message
        /// (`reserveRoom`), and whether the stream is gone (room taken after that goes back).
        var reservedRoom = 0
        var roomClosed = false

        /// Counts a taken request; returns what to report, if a report is due.
        mutating func took(bytes: Int, owed: Int, threshold: Int) -> TakenReport? {
            guard threshold != .max else { return owed > 0 ? TakenReport(owed: owed, taken: 0, waiting: false) : nil }
            unreportedTaken &+= bytes
            guard owed > 0 || unreportedTaken >= threshold else { return nil }
            defer { unreportedTaken = 0 }
            return TakenReport(owed: owed, taken: unreportedTaken, waiting: false)
        }

        /// The handler is about to wait: what to report, if anything.
        mutating func willWait() -> TakenReport? {
            guard unreportedTaken > 0 || waitNoticeWanted else { return nil }
            defer {
                unreportedTaken = 0
                waitNoticeWanted = false
            }
            return TakenReport(owed: 0, taken: unreportedTaken, waiting: true)
        }
    }

    private struct TakenReport {
        var owed: Int
        var taken: Int
        var waiting: Bool
    }

    private let shared = Mutex(Shared())
    /// A lock of its own (stored inline, not a separate object): cancelling a task runs its
    /// cancellation handlers at once, and those take `shared`.
    private let task = Mutex(TaskState.idle)

    /// - Parameters:
    ///   - eagerAllowance: request bytes that may wait unread before pushes become owed
    ///     (their flow-control credit is given back only when the handler takes them).
    ///   - highWatermark, lowWatermark: response bytes a writer may have pending.
    ///   - takenReportThreshold: see `requestBytesTaken`.
    public init(
        head: RequestHead, deadline: ContinuousClock.Instant?, remotePeer: String,
        eagerAllowance: Int = 64 * 1024, highWatermark: Int = 256 * 1024, lowWatermark: Int = 64 * 1024,
        takenReportThreshold: Int = .max
    ) {
        self.head = head
        self.fixedDeadline = deadline.map(FixedInstant.init)
        self.remotePeer = remotePeer
        self.eagerAllowance = eagerAllowance
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
        self.takenReportThreshold = takenReportThreshold
        self.outboundBudget = nil
    }

    /// With the deadline the request asked for: `head.timeout` from now (what an HTTP/2
    /// transport does with `grpc-timeout`), computed without a `ContinuousClock.Instant`.
    ///
    /// Public, not `package`: a `package` designated initializer of an open class that a
    /// subclass does not inherit (it declares its own) gets a vtable thunk that the
    /// compiler diagnoses as infinite recursion (swiftlang/swift#92023).
    public init(
        head: RequestHead, remotePeer: String, eagerAllowance: Int, highWatermark: Int, lowWatermark: Int,
        takenReportThreshold: Int = .max, outboundBudget: OutboundBudget? = nil
    ) {
        self.head = head
        self.fixedDeadline = head.timeout.map(FixedInstant.after)
        self.remotePeer = remotePeer
        self.eagerAllowance = eagerAllowance
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
        self.takenReportThreshold = takenReportThreshold
        self.outboundBudget = outboundBudget
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

    /// The handler took requests: `owed` bytes of them had their flow-control credit held
    /// back (the transport gives it to the peer now); `taken` is every byte of the queued
    /// requests taken since the last report (reported once they reach
    /// `takenReportThreshold`, with owed bytes, and before the handler waits). `waiting`:
    /// the handler is about to wait for the next request, and either had taken bytes to
    /// report or the transport asked to hear it (`isWaitingForRequest()`). Called outside
    /// the lock, on the handler's task.
    open func requestBytesTaken(owed: Int, taken: Int, waiting: Bool) {}

    private func report(_ report: TakenReport?) {
        if let report { requestBytesTaken(owed: report.owed, taken: report.taken, waiting: report.waiting) }
    }

    // MARK: Requests, for the transport

    /// Queues a request message standing for `bytes` of flow-controlled input, or hands it
    /// to the handler waiting for it.
    @discardableResult
    public final func pushRequest(_ message: [UInt8], bytes: Int) -> RequestPush {
        let outcome = shared.withLock {
            shared -> (waiter: UnsafeContinuation<[UInt8]?, any Error>?, push: RequestPush) in
            guard shared.requests.end == nil else { return (nil, .taken) }
            if let waiter = shared.requestWaiter {
                shared.requestWaiter = nil
                return (waiter, .taken)
            }
            return (
                nil, shared.requests.append(message, bytes: bytes, eagerAllowance: eagerAllowance) ? .owed : .queued
            )
        }
        outcome.waiter?.resume(returning: message)
        return outcome.push
    }

    /// Whether the handler is waiting for a request now. If it is not, it reports
    /// (`requestBytesTaken(…, waiting: true)`) the next time it starts to wait: for a
    /// transport that credits a message still arriving only while its handler waits for it.
    public final func isWaitingForRequest() -> Bool {
        shared.withLock { shared in
            if shared.requestWaiter != nil { return true }
            shared.waitNoticeWanted = true
            return false
        }
    }

    /// Bytes of request messages queued and not yet taken (tests, diagnostics).
    package final var queuedRequestBytes: Int { shared.withLock { $0.requests.bufferedBytes } }

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
        let threshold = takenReportThreshold
        let (outcome, due) = shared.withLock { shared in
            let taken = shared.requests.takeSingleIfComplete()
            return (taken.0, shared.took(bytes: taken.bytes, owed: taken.owedBytes, threshold: threshold))
        }
        report(due)
        return outcome
    }

    /// The next request message; nil at the end; throws the error the call failed with.
    public final func nextRequest() async throws -> [UInt8]? {
        let threshold = takenReportThreshold
        let (taken, due) = shared.withLock { shared -> (InboundBuffer<[UInt8]>.Taken, TakenReport?) in
            let taken = shared.requests.take()
            guard case .element(_, let bytes, let owed) = taken else { return (taken, nil) }
            return (taken, shared.took(bytes: bytes, owed: owed, threshold: threshold))
        }
        switch taken {
        case .element(let message, _, _):
            report(due)
            return message
        case .end(let end):
            return try InboundBuffer<[UInt8]>.deliver(end)
        case .empty:
            break
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let (taken, due) = shared.withLock { shared -> (InboundBuffer<[UInt8]>.Taken, TakenReport?) in
                    let taken = shared.requests.take()
                    switch taken {
                    case .empty:
                        shared.requestWaiter = continuation
                        return (taken, shared.willWait())
                    case .element(_, let bytes, let owed):
                        return (taken, shared.took(bytes: bytes, owed: owed, threshold: threshold))
                    case .end:
                        return (taken, nil)
                    }
                }
                // A waiting report goes out after the waiter is in place: a message the
                // transport then pushes finds it.
                report(due)
                switch taken {
                case .element(let message, _, _): continuation.resume(returning: message)
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

    // MARK: The connection's outbound budget

    /// Waits until the connection's budget has room for a message of `bytes` and holds it
    /// for the next message written: for a handler that would otherwise read that message
    /// into memory (a file's next chunk) only to wait with it. Without a budget, returns.
    public final func reserveRoom(_ bytes: Int) async throws {
        guard let budget = outboundBudget, bytes > 0 else { return }
        try await budget.take(bytes)
        let gone = shared.withLock { shared -> Bool in
            if shared.roomClosed { return true }
            shared.reservedRoom += bytes
            return false
        }
        if gone {
            budget.give(bytes)
            throw abandonment ?? RPCError(code: .cancelled, message: "The call is over")
        }
    }

    /// For the transport's `write`: takes room for a message of `size` bytes (what
    /// `reserveRoom` holds first; what it held beyond the message goes back), waiting for
    /// the rest.
    package final func takeRoom(forMessageOf size: Int) async throws {
        guard let budget = outboundBudget else { return }
        let reserved = shared.withLock { shared -> Int in
            defer { shared.reservedRoom = 0 }
            return shared.reservedRoom
        }
        let covered = min(reserved, size)
        budget.give(reserved - covered)
        do {
            try await budget.take(size - covered)
        } catch {
            budget.give(covered)
            throw error
        }
    }

    /// The stream is gone (on the transport's side): room the handler holds goes back now,
    /// and room it takes later goes back at once.
    package final func closeRoom() {
        let reserved = shared.withLock { shared -> Int in
            shared.roomClosed = true
            defer { shared.reservedRoom = 0 }
            return shared.reservedRoom
        }
        outboundBudget?.give(reserved)
    }

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

/// What became of a request message a transport pushed (`ServerStream.pushRequest`).
public enum RequestPush: Sendable, Hashable {
    /// Handed to the handler waiting for it, or dropped because the call's requests are
    /// over: nothing holds its bytes.
    case taken
    /// Queued within the eager allowance: its flow-control credit may be given now.
    case queued
    /// Queued over the eager allowance: its credit is owed until the handler takes it.
    case owed
}
