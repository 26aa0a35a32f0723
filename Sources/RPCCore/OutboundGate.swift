import Synchronization

/// Backpressure for what a call writes: the writer adds the bytes it queues, the transport
/// releases them as it hands them to the wire, and a writer that finds more than
/// `highWatermark` pending waits until the transport brings it to `lowWatermark` or less.
///
/// Invariants: `pending` is queued minus released bytes; at most one writer waits (a call
/// writes from one task); once closed, waiting and later writers fail with the close error.
public final class OutboundGate: Sendable {
    private struct State {
        var pending = 0
        var waiter: UnsafeContinuation<Void, any Error>?
        var closed: RPCError?
    }

    private let state = Mutex(State())
    public let highWatermark: Int
    public let lowWatermark: Int

    public init(highWatermark: Int = 256 * 1024, lowWatermark: Int = 64 * 1024) {
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
    }

    /// Counts `bytes` as pending and waits while too much is; `beforeWaiting` runs first
    /// when it must wait (a writer that held parts back must send them now).
    public func add(_ bytes: Int, beforeWaiting: () -> Void = {}) async throws {
        let mustWait = try state.withLock { state throws(RPCError) -> Bool in
            if let closed = state.closed { throw closed }
            state.pending += bytes
            return state.pending > highWatermark
        }
        guard mustWait else { return }
        beforeWaiting()
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let resumeWith = state.withLock { state -> Result<Void, RPCError>? in
                    if let closed = state.closed { return .failure(closed) }
                    if state.pending <= lowWatermark { return .success(()) }
                    state.waiter = continuation
                    return nil
                }
                if let resumeWith { continuation.resume(with: resumeWith) }
            }
        } onCancel: {
            close(RPCError(code: .cancelled, message: "The call's task was cancelled"))
        }
    }

    /// The transport has written `bytes` of what was pending.
    public func release(_ bytes: Int) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            state.pending -= bytes
            guard state.pending <= lowWatermark, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// No more writes: the stream is over. The waiting writer fails with `error`.
    public func close(_ error: RPCError) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            if state.closed == nil { state.closed = error }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: error)
    }

    public var isClosed: Bool { state.withLock { $0.closed != nil } }
}
