#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import GlimpseMessages
import Synchronization

/// Every entry change, numbered, fanned out to the `WatchEntries` streams open now. The
/// sequence is the watermark `AdvanceTo` reports: a watcher has seen everything up to an
/// advance once it has received that sequence.
public final class EntryFeed: Sendable {
    private struct State {
        var sequence: UInt64 = 0
        var watchers: [UInt64: AsyncStream<GlimpseTimelineV1.EntryChange>.Continuation] = [:]
        var nextWatcher: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The sequence of the last change published.
    public var sequence: UInt64 { state.withLock { $0.sequence } }

    /// Numbers the change and hands it to every watcher whose filter takes it.
    public func publish(_ change: GlimpseTimelineV1.EntryChange) {
        state.withLock { state in
            state.sequence += 1
            var numbered = change
            numbered.sequence = state.sequence
            for continuation in state.watchers.values { continuation.yield(numbered) }
        }
    }

    /// A stream of the changes published from now on; it ends when the caller stops reading.
    public func subscribe() -> AsyncStream<GlimpseTimelineV1.EntryChange> {
        let (stream, continuation) = AsyncStream<GlimpseTimelineV1.EntryChange>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
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
