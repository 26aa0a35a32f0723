package import GlimpseVocabulary
package import IntentEngine
import Synchronization

/// Perform calls waiting for the completion of a tap (their own, answered by a handler
/// later, or the first one with their idempotency key): each subscribes before it submits,
/// and every `.completed` effect resolves the waiters on its key.
package final class TapWaiters: Sendable {
    struct Key: Hashable {
        var app: AppID
        var key: String
    }

    private struct State {
        var waiters: [Key: [UInt64: AsyncStream<TapCompletion>.Continuation]] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// A stream that yields the next completion of `key` of `app`, then ends.
    package func subscribe(app: AppID, key: String) -> AsyncStream<TapCompletion> {
        let (stream, continuation) = AsyncStream<TapCompletion>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let k = Key(app: app, key: key)
        let id = state.withLock { state in
            state.next += 1
            state.waiters[k, default: [:]][state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.waiters[k]?.removeValue(forKey: id) }
        }
        return stream
    }

    package func resolve(_ completion: TapCompletion) {
        let waiting = state.withLock { state in
            state.waiters.removeValue(forKey: Key(app: completion.app, key: completion.idempotencyKey)).map {
                Array($0.values)
            } ?? []
        }
        for continuation in waiting {
            continuation.yield(completion)
            continuation.finish()
        }
    }

    /// Ends every wait (shutdown).
    package func finish() {
        let all = state.withLock { state in
            defer { state.waiters = [:] }
            return state.waiters.values.flatMap(\.values)
        }
        for continuation in all { continuation.finish() }
    }
}
