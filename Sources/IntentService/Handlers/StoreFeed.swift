#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import GlimpseVocabulary
import Synchronization

/// "App Group G is at sequence N now", numbered, fanned out to the `Watch` streams open
/// now; each stream reads the changes themselves from the store. The count is the
/// watermark `AdvanceTo` reports.
public final class StoreFeed: Sendable {
    public struct Signal: Sendable, Hashable {
        public var group: GroupID
        public var sequence: UInt64
    }

    private struct State {
        var count: UInt64 = 0
        var watchers: [UInt64: AsyncStream<Signal>.Continuation] = [:]
        var nextWatcher: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// How many signals were published.
    public var sequence: UInt64 { state.withLock { $0.count } }

    public func publish(_ group: GroupID, sequence: UInt64) {
        state.withLock { state in
            state.count += 1
            for continuation in state.watchers.values { continuation.yield(Signal(group: group, sequence: sequence)) }
        }
    }

    /// The signals published from now on; the stream ends when the caller stops reading.
    public func subscribe() -> AsyncStream<Signal> {
        let (stream, continuation) = AsyncStream<Signal>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let id = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = continuation
            return state.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every stream (shutdown).
    public func finish() {
        let watchers = state.withLock { state in
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for continuation in watchers { continuation.finish() }
    }
}
