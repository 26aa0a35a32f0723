package import RPCCore
import Synchronization

/// A service's events, numbered, fanned out to the watch streams open now, in batches (the
/// events one engine step made go out together, and a stream writes them with one flush).
/// The number of the last event is the watermark `AdvanceTo` reports: a watcher has seen
/// everything up to an advance once it has received that number.
///
/// No event is dropped silently: a watcher that falls more than `limit` events behind is
/// ended with `FellBehind` (its RPC status: RESOURCE_EXHAUSTED, watch again for a fresh
/// snapshot), so memory stays bounded whatever a slow client does.
package final class EventFeed<Event: Sendable>: Sendable {
    private struct State {
        var sequence: UInt64 = 0
        var watchers: [UInt64: Watcher] = [:]
        var nextWatcher: UInt64 = 0
    }

    private struct Watcher: Sendable {
        var continuation: AsyncThrowingStream<[Event], any Error>.Continuation
        var backlog: Backlog
    }

    private let state = Mutex(State())
    /// The most events a watcher may have waiting before it is ended.
    package let limit: Int

    package init(limit: Int = 1_000_000) {
        self.limit = limit
    }

    /// The number of the last event published.
    package var sequence: UInt64 { state.withLock { $0.sequence } }

    /// Numbers the next event (`make` gets its number) and hands it to every watcher.
    package func publish(_ make: (UInt64) -> Event) {
        publish(count: 1) { _, sequence in make(sequence) }
    }

    /// Numbers `count` events in order (`make` gets each one's index and number) and hands
    /// them to every watcher as one batch.
    package func publish(count: Int, _ make: (Int, UInt64) -> Event) {
        guard count > 0 else { return }
        let overflowed: [AsyncThrowingStream<[Event], any Error>.Continuation] = state.withLock { state in
            var batch: [Event] = []
            batch.reserveCapacity(count)
            for index in 0..<count {
                state.sequence += 1
                batch.append(make(index, state.sequence))
            }
            var overflowed: [AsyncThrowingStream<[Event], any Error>.Continuation] = []
            for (id, watcher) in state.watchers {
                if watcher.backlog.add(count) > limit {
                    state.watchers[id] = nil
                    overflowed.append(watcher.continuation)
                } else {
                    watcher.continuation.yield(batch)
                }
            }
            return overflowed
        }
        for continuation in overflowed { continuation.finish(throwing: FellBehind(limit: limit)) }
    }

    /// The events published from now on, in batches; the stream ends when the caller stops
    /// reading, at `finish()`, or with `FellBehind`.
    package func subscribe() -> Subscription {
        let (stream, continuation) = AsyncThrowingStream<[Event], any Error>.makeStream()
        let backlog = Backlog()
        let id = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = Watcher(continuation: continuation, backlog: backlog)
            return state.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return Subscription(stream: stream, backlog: backlog)
    }

    /// Ends every stream (shutdown).
    package func finish() {
        let watchers = state.withLock { state in
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.continuation.finish() }
    }

    /// A watcher's batches; taking one frees its events from the watcher's backlog.
    package struct Subscription: AsyncSequence, Sendable {
        package typealias Element = [Event]
        let stream: AsyncThrowingStream<[Event], any Error>
        let backlog: Backlog

        package func makeAsyncIterator() -> Iterator {
            Iterator(base: stream.makeAsyncIterator(), backlog: backlog)
        }

        package struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<[Event], any Error>.Iterator
            let backlog: Backlog

            package mutating func next(
                isolation actor: isolated (any Actor)? = #isolation
            ) async throws(any Error) -> [Event]? {
                let batch = try await base.next(isolation: actor)
                if let batch { backlog.take(batch.count) }
                return batch
            }

            package mutating func next() async throws -> [Event]? {
                try await next(isolation: nil)
            }
        }
    }

    /// The events published to one watcher and not yet taken by it.
    final class Backlog: Sendable {
        private let count = Atomic<Int>(0)

        /// Adds `n`; returns the new total.
        func add(_ n: Int) -> Int { count.add(n, ordering: .relaxed).newValue }
        func take(_ n: Int) { count.subtract(n, ordering: .relaxed) }
    }
}

/// A watcher fell further behind than its feed keeps for it.
package struct FellBehind: Error, Sendable, Hashable, CustomStringConvertible {
    package var limit: Int

    package init(limit: Int) {
        self.limit = limit
    }

    package var description: String {
        "this watcher fell more than \(limit) events behind; watch again for the current state"
    }

    /// RESOURCE_EXHAUSTED, saying what to do.
    package var rpcError: RPCError { RPCError(code: .resourceExhausted, message: description) }
}
