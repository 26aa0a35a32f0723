public import Synchronization

/// A single-consumer queue that carries what a transport receives to the task of a call,
/// with the bookkeeping HTTP/2 flow control needs.
///
/// Invariants:
/// - `bufferedBytes` is the sum of `bytes` over the entries still queued.
/// - An entry is pushed *eager* (its bytes may be released to the peer at once) only while
///   `bufferedBytes` stays within `eagerAllowance`; every other entry is *owed*, and its
///   bytes are reported to `observer` when the consumer takes it. So the peer can
///   never have more than `eagerAllowance` plus its flow-control window in this queue.
/// - At most one consumer waits at a time; it is resumed exactly once.
/// - After `finish`/`fail`, pushes are dropped; queued entries are still delivered first,
///   then the end (or the error).
public final class InboundQueue<Element: Sendable>: Sendable {
    @usableFromInline
    struct State: Sendable {
        @usableFromInline var buffer = InboundBuffer<Element>()
        @usableFromInline var waiter: UnsafeContinuation<Element?, any Error>?

        @inlinable init() {}
    }

    @usableFromInline typealias Taken = InboundBuffer<Element>.Taken
    @usableFromInline typealias End = InboundBuffer<Element>.End

    @usableFromInline let state = Mutex(State())
    @usableFromInline let eagerAllowance: Int
    @usableFromInline let observer: (any InboundFlowObserver)?

    /// - Parameters:
    ///   - eagerAllowance: bytes the queue may hold before pushes become owed.
    ///   - observer: told (on the consumer's thread, outside the lock) the bytes of each
    ///     owed entry the consumer takes.
    @inlinable
    public init(eagerAllowance: Int = .max, observer: (any InboundFlowObserver)? = nil) {
        self.eagerAllowance = eagerAllowance
        self.observer = observer
    }

    // MARK: Producer

    /// Queues `element`, which stands for `bytes` of flow-controlled input. Returns true
    /// when those bytes may be released to the peer now (handed straight to a waiting
    /// consumer, or within the eager allowance); false when they are owed until taken.
    @inlinable @discardableResult
    public func push(_ element: Element, bytes: Int = 0) -> Bool {
        let outcome = state.withLock { state -> PushOutcome in
            guard state.buffer.end == nil else { return .dropped }
            if let waiter = state.waiter {
                state.waiter = nil
                return .handOver(waiter)
            }
            return state.buffer.append(element, bytes: bytes, eagerAllowance: eagerAllowance) ? .owed : .eager
        }
        switch outcome {
        case .handOver(let waiter):
            waiter.resume(returning: element)
            return true
        case .eager, .dropped: return true
        case .owed: return false
        }
    }

    @usableFromInline
    enum PushOutcome {
        case handOver(UnsafeContinuation<Element?, any Error>)
        case eager, owed, dropped
    }

    /// Queues every element of `elements` in order, each standing for no flow-controlled
    /// bytes, under one lock and with at most one wake-up of the consumer: a producer that
    /// receives bursts (a connection's read) hands each burst over at once. Empties
    /// `elements`, keeping its storage.
    @inlinable
    public func push(contentsOf elements: inout [Element]) {
        guard !elements.isEmpty else { return }
        let handOver = state.withLock { state -> (UnsafeContinuation<Element?, any Error>, Element)? in
            guard state.buffer.end == nil else { return nil }
            for element in elements {
                _ = state.buffer.append(element, bytes: 0, eagerAllowance: eagerAllowance)
            }
            // A waiting consumer has an empty buffer: it gets the oldest of these.
            guard let waiter = state.waiter, case .element(let element, _, _) = state.buffer.take() else { return nil }
            state.waiter = nil
            return (waiter, element)
        }
        elements.removeAll(keepingCapacity: true)
        if let (waiter, element) = handOver { waiter.resume(returning: element) }
    }

    /// No more elements will come; the consumer sees the end after the queued ones.
    @inlinable public func finish() { close(.finished) }

    /// The stream failed; the consumer sees `error` after the queued elements.
    @inlinable public func fail(_ error: RPCError) { close(.failed(error)) }

    @inlinable
    func close(_ end: End) {
        let waiter = state.withLock { state -> UnsafeContinuation<Element?, any Error>? in
            guard state.buffer.end == nil else { return nil }
            state.buffer.end = end
            defer { state.waiter = nil }
            return state.waiter
        }
        guard let waiter else { return }
        switch end {
        case .finished: waiter.resume(returning: nil)
        case .failed(let error): waiter.resume(throwing: error)
        }
    }

    /// True once `finish` or `fail` was called.
    @inlinable public var isClosed: Bool { state.withLock { $0.buffer.end != nil } }

    // MARK: Consumer

    /// Without waiting: the only element of a stream that has already ended, or why not.
    /// (`.incomplete`: the end has not arrived yet; use `next()`.)
    @inlinable
    public func takeSingleIfComplete() -> SingleOutcome<Element> {
        let outcome = state.withLock { $0.buffer.takeSingleIfComplete() }
        if outcome.owedBytes > 0 { observer?.owedBytesTaken(outcome.owedBytes) }
        return outcome.0
    }

    /// Without waiting: every queued element, appended to `elements` in order (none at
    /// the end, which `next()` then reports). One lock for the lot.
    @inlinable
    public func pollAll(into elements: inout [Element]) {
        var owed = 0
        state.withLock { state in
            while state.buffer.queuedCount > 0, case .element(let element, _, let owedBytes) = state.buffer.take() {
                elements.append(element)
                owed += owedBytes
            }
        }
        if owed > 0 { observer?.owedBytesTaken(owed) }
    }

    /// The next element; nil at the end; throws the error the stream failed with.
    @inlinable
    public func next() async throws -> Element? {
        switch state.withLock({ $0.buffer.take() }) {
        case .element(let element, _, let owedBytes):
            if owedBytes > 0 { observer?.owedBytesTaken(owedBytes) }
            return element
        case .end(let end):
            return try InboundBuffer<Element>.deliver(end)
        case .empty:
            break
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let outcome = state.withLock { state -> Taken in
                    let taken = state.buffer.take()
                    if case .empty = taken { state.waiter = continuation }
                    return taken
                }
                switch outcome {
                case .element(let element, _, let owedBytes):
                    if owedBytes > 0 { observer?.owedBytesTaken(owedBytes) }
                    continuation.resume(returning: element)
                case .end(.finished): continuation.resume(returning: nil)
                case .end(.failed(let error)): continuation.resume(throwing: error)
                case .empty: break
                }
            }
        } onCancel: {
            fail(RPCError(code: .cancelled, message: "The call's task was cancelled"))
        }
    }
}

extension InboundQueue {
    /// The elements as an async sequence (one consumer).
    @inlinable public var elements: Elements { Elements(queue: self) }

    public struct Elements: AsyncSequence, Sendable {
        @usableFromInline let queue: InboundQueue

        @inlinable init(queue: InboundQueue) { self.queue = queue }

        public struct AsyncIterator: AsyncIteratorProtocol {
            @usableFromInline let queue: InboundQueue
            @inlinable init(queue: InboundQueue) { self.queue = queue }
            @inlinable public mutating func next() async throws -> Element? { try await queue.next() }
        }

        @inlinable public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }
    }
}

/// Learns when a consumer took input whose flow-control credit was held back (an owed
/// entry of an `InboundQueue`), so the transport can give that credit to the peer.
public protocol InboundFlowObserver: Sendable {
    func owedBytesTaken(_ bytes: Int)
}

extension OutboundGate: InboundFlowObserver {
    /// In memory, what the reader takes is what the writer may write again.
    public func owedBytesTaken(_ bytes: Int) { release(bytes) }
}
