import Synchronization

/// Response bytes one connection may hold queued for sending, whatever the number of its
/// streams. A writer takes room *before* its message is queued and waits while there is
/// none; the transport gives room back as bytes go to the wire (or are dropped). So a
/// client that opens many streams and reads none of them holds at most `limit` bytes of
/// the server's memory per connection (a single message larger than the limit may go
/// alone, into an empty budget), beside what each stream's own watermark allows.
///
/// Invariants: `used` is room taken minus room given; waiters are admitted in the order
/// they came (a large message is not starved by small ones), each resumed exactly once:
/// admitted, cancelled, or failed when the budget closes; once closed, taking fails.
public final class OutboundBudget: Sendable {
    public let limit: Int

    private struct Waiter {
        let id: Int
        let bytes: Int
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct State {
        var used = 0
        var waiters: [Waiter] = []
        var nextID = 0
        /// Waiters cancelled before they were parked.
        var cancelled: Set<Int> = []
        var closed: RPCError?

        func fits(_ bytes: Int, limit: Int) -> Bool { used == 0 || used + bytes <= limit }
    }

    private let state = Mutex(State())

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Room in use (tests, diagnostics).
    public var used: Int { state.withLock { $0.used } }

    /// Writers waiting for room (tests, diagnostics).
    public var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Takes room for `bytes`, waiting until they fit behind the writers already waiting.
    /// Throws the close error once the budget is closed, CancellationError if the task is.
    public func take(_ bytes: Int) async throws {
        guard bytes > 0 else { return }
        let limit = self.limit
        let id = try state.withLock { state throws(RPCError) -> Int? in
            if let closed = state.closed { throw closed }
            if state.waiters.isEmpty, state.fits(bytes, limit: limit) {
                state.used += bytes
                return nil
            }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if let closed = state.closed { return .failure(closed) }
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if state.waiters.isEmpty, state.fits(bytes, limit: limit) {
                        state.used += bytes
                        return .success(())
                    }
                    state.waiters.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Counts `bytes` queued without waiting (a part that ends a call: a unary response,
    /// a status's error line), so that giving them back later balances.
    public func takeWithoutWaiting(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.used += bytes }
    }

    /// `bytes` went to the wire or were dropped: their room is free again, for the writers
    /// waiting first.
    public func give(_ bytes: Int) {
        guard bytes > 0 else { return }
        let limit = self.limit
        let admitted = state.withLock { state -> [Waiter] in
            state.used -= bytes
            var admitted: [Waiter] = []
            while let first = state.waiters.first, state.fits(first.bytes, limit: limit) {
                state.used += first.bytes
                admitted.append(state.waiters.removeFirst())
            }
            return admitted
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    /// The connection is gone: every waiting and later writer fails with `error`.
    public func close(_ error: RPCError) {
        let waiters = state.withLock { state -> [Waiter] in
            if state.closed == nil { state.closed = error }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: error) }
    }
}
