/// The state behind a writer's backpressure, kept under its owner's lock (`OutboundGate`,
/// `ServerStream`): bytes queued and not yet handed to the wire, the one writer waiting
/// for room, and the error that ended writing.
///
/// Invariants: `pending` is bytes added minus bytes released; a writer waits only while
/// `pending` is over the high watermark when it adds, and is resumed once `pending` is
/// at the low watermark or less, or writing is closed; once closed, it stays closed.
struct OutboundCredit {
    var pending = 0
    var waiter: UnsafeContinuation<Void, any Error>?
    var closed: RPCError?

    /// Counts `bytes`; returns true when the writer must wait. Throws once closed.
    mutating func add(_ bytes: Int, highWatermark: Int) throws(RPCError) -> Bool {
        if let closed { throw closed }
        pending += bytes
        return pending > highWatermark
    }

    /// For a writer about to wait: how to resume it now, or nil once it is parked.
    mutating func park(_ writer: UnsafeContinuation<Void, any Error>, lowWatermark: Int) -> Result<Void, RPCError>? {
        if let closed { return .failure(closed) }
        if pending <= lowWatermark { return .success(()) }
        waiter = writer
        return nil
    }

    /// `bytes` went to the wire; returns the writer to resume, if there is room now.
    mutating func release(_ bytes: Int, lowWatermark: Int) -> UnsafeContinuation<Void, any Error>? {
        pending -= bytes
        guard pending <= lowWatermark, let writer = waiter else { return nil }
        waiter = nil
        return writer
    }

    /// No more writes; returns the waiting writer, to fail with `error`.
    mutating func close(_ error: RPCError) -> UnsafeContinuation<Void, any Error>? {
        if closed == nil { closed = error }
        defer { waiter = nil }
        return waiter
    }

    /// Waits for room: `park` runs `OutboundCredit.park` under the owner's lock; a
    /// cancelled task runs `onCancel`, which must close the credit.
    static func waitForRoom(
        park: (UnsafeContinuation<Void, any Error>) -> Result<Void, RPCError>?,
        onCancel: @Sendable () -> Void
    ) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (writer: UnsafeContinuation<Void, any Error>) in
                if let resumeWith = park(writer) { writer.resume(with: resumeWith) }
            }
        } onCancel: {
            onCancel()
        }
    }
}
