import Synchronization

/// Backpressure for what a call writes: the writer adds the bytes it queues, the transport
/// releases them as it hands them to the wire, and a writer that finds more than
/// `highWatermark` pending waits until the transport brings it to `lowWatermark` or less.
///
/// Invariants: `pending` is queued minus released bytes; at most one writer waits (a call
/// writes from one task); once closed, waiting and later writers fail with the close error.
public final class OutboundGate: Sendable {
    private let state = Mutex(OutboundCredit())
    public let highWatermark: Int
    public let lowWatermark: Int

    public init(highWatermark: Int = 256 * 1024, lowWatermark: Int = 64 * 1024) {
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
    }

    /// Counts `bytes` as pending and waits while too much is; `beforeWaiting` runs first
    /// when it must wait (a writer that held parts back must send them now).
    public func add(_ bytes: Int, beforeWaiting: () -> Void = {}) async throws {
        let mustWait = try state.withLock { state throws(RPCError) in try state.add(bytes, highWatermark: highWatermark)
        }
        guard mustWait else { return }
        beforeWaiting()
        try await OutboundCredit.waitForRoom { writer in
            state.withLock { $0.park(writer, lowWatermark: lowWatermark) }
        } onCancel: {
            close(RPCError(code: .cancelled, message: "The call's task was cancelled"))
        }
    }

    /// The transport has written `bytes` of what was pending.
    public func release(_ bytes: Int) {
        state.withLock { $0.release(bytes, lowWatermark: lowWatermark) }?.resume()
    }

    /// No more writes: the stream is over. The waiting writer fails with `error`.
    public func close(_ error: RPCError) {
        state.withLock { $0.close(error) }?.resume(throwing: error)
    }

    public var isClosed: Bool { state.withLock { $0.closed != nil } }
}
