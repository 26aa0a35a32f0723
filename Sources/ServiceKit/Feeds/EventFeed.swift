import Synchronization

/// A service's events, numbered, fanned out to the watch streams open now. The number of
/// the last event is the watermark `AdvanceTo` reports: a watcher has seen everything up to
/// an advance once it has received that number.
public final class EventFeed<Event: Sendable>: Sendable {
    private struct State {
        var sequence: UInt64 = 0
        var watchers: [UInt64: AsyncStream<Event>.Continuation] = [:]
        var nextWatcher: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The number of the last event published.
    public var sequence: UInt64 { state.withLock { $0.sequence } }

    /// Numbers the next event (`make` gets its number) and hands it to every watcher.
    public func publish(_ make: (UInt64) -> Event) {
        state.withLock { state in
            state.sequence += 1
            let event = make(state.sequence)
            for continuation in state.watchers.values { continuation.yield(event) }
        }
    }

    /// The events published from now on; the stream ends when the caller stops reading.
    public func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
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
