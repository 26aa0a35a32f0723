package import GlimpseMessages
import Synchronization

/// One `Events.Follow`: a cursor into the event log, read page by page. It holds no copy
/// of the log (a hundred followers of a full log cost a hundred cursors), and it is
/// bounded: once more than `maxLag` events were committed after it began that it has not
/// read yet, or the log dropped events it had not read, it has fallen behind and `next`
/// throws `FellBehind` (the caller ends the stream with RESOURCE_EXHAUSTED; the client
/// follows again from the last sequence it got). A client that never reads holds only
/// what its stream's flow control lets the transport queue.
package final class EventFollower: Sendable {
    /// The follower fell behind: it read up to `lastRead` (a sequence), then missed events.
    package struct FellBehind: Error, Sendable, Hashable {
        package let lastRead: UInt64

        package init(lastRead: UInt64) { self.lastRead = lastRead }
    }

    private let log: EventLog
    private let id: Int
    package let maxLag: Int

    init(log: EventLog, id: Int, maxLag: Int) {
        self.log = log
        self.id = id
        self.maxLag = maxLag
    }

    deinit { close() }

    /// How many entries one look at the log scans at most, so that a follower with a
    /// narrow filter never holds the log's lock for long.
    static let scanLimit = 4096

    /// Up to `limit` events after the last ones read, waiting until there is one; nil at
    /// the end (the gateway is stopping, or the follower was closed). Cancellable.
    package func next(limit: Int = 256) async throws -> [GlimpseGatewayV1.Event]? {
        while true {
            switch read(limit: limit) {
            case .events(let events): return events.map(\.event)  // read back outside the lock
            case .again: continue
            case .end: return nil
            case .behind(let lastRead): throw FellBehind(lastRead: lastRead)
            case .wait: try await waitForCommit()
            }
        }
    }

    /// Stops following (the stream is over).
    package func close() {
        let waiter = log.state.withLock { $0.followers.removeValue(forKey: id)?.waiter }
        waiter?.resume(throwing: CancellationError())
    }

    private enum Step {
        case events([KeptEvents.Copied])
        case again, wait, end
        case behind(UInt64)
    }

    private func read(limit: Int) -> Step {
        log.state.withLock { state in
            guard var follower = state.followers[id] else { return .end }
            defer { state.followers[id] = follower }
            if follower.behind || follower.cursor + 1 < state.firstKeptSequence {
                follower.behind = true
                return .behind(follower.lastRead)
            }
            let start = EventLog.startIndex(after: follower.cursor, in: state)
            let end = min(state.kept.count, start + Self.scanLimit)
            var found: [KeptEvents.Copied] = []
            var index = start
            while index < end, found.count < limit {
                if state.kept.matches(follower.filter, at: index) { found.append(state.kept.copy(at: index)) }
                index += 1
            }
            if index > start { follower.cursor = state.kept.sequence(at: index - 1) }
            if let last = found.last { follower.lastRead = last.sequence }
            if !found.isEmpty { return .events(found) }
            if index < state.kept.count { return .again }
            return state.finished ? .end : .wait
        }
    }

    private func waitForCommit() async throws {
        let id = self.id
        let log = self.log
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (waiter: UnsafeContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = log.state.withLock { state in
                    guard var follower = state.followers[id] else { return .success(()) }  // closed: `read` ends it
                    if Task.isCancelled { return .failure(CancellationError()) }
                    // Something came (or the end) since the last look: look again.
                    if state.finished || follower.behind || state.lastSequence > follower.cursor { return .success(()) }
                    follower.waiter = waiter
                    state.followers[id] = follower
                    return nil
                }
                if let now { waiter.resume(with: now) }
            }
        } onCancel: {
            let waiter = log.state.withLock { $0.followers[id]?.takeWaiter() }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// A follower's place in the log, kept under the log's lock.
struct FollowerState {
    let filter: EventLog.Filter
    let maxLag: Int
    /// The last sequence looked at (read or skipped by the filter).
    var cursor: UInt64
    /// The last sequence handed to the follower.
    var lastRead: UInt64
    /// The log's last sequence when the follower began: events after it are its lag.
    let began: UInt64
    var waiter: UnsafeContinuation<Void, any Error>?
    var behind = false

    /// `event` was committed as `lastSequence`: marks the follower behind if it now lags
    /// more than `maxLag` (it learns so at its next read), and returns its waiter if the
    /// event is one for it.
    mutating func committed(
        _ event: KeptEvents.Prepared, lastSequence: UInt64
    ) -> UnsafeContinuation<Void, any Error>? {
        guard !behind else { return nil }
        if lastSequence - max(cursor, began) > UInt64(maxLag) {
            behind = true
            return takeWaiter()
        }
        return filter.matches(kind: event.kind, bundleID: event.bundleID) ? takeWaiter() : nil
    }

    mutating func takeWaiter() -> UnsafeContinuation<Void, any Error>? {
        defer { waiter = nil }
        return waiter
    }
}

extension EventLog {
    /// How many followers are registered (tests, diagnostics).
    package var followerCount: Int { state.withLock { $0.followers.count } }

    /// Follows the events after `after` (from the oldest kept, if those after `after` are
    /// gone already), then every event committed from now on; see `EventFollower`.
    package func follow(after: UInt64, filter: Filter, maxLag: Int = 10_000) -> EventFollower {
        let maxLag = max(1, maxLag)
        let id = state.withLock { state -> Int in
            let id = state.nextFollower
            state.nextFollower += 1
            let cursor = max(after, state.firstKeptSequence - 1)
            state.followers[id] = FollowerState(
                filter: filter, maxLag: maxLag, cursor: cursor, lastRead: after, began: state.lastSequence)
            return id
        }
        return EventFollower(log: self, id: id, maxLag: maxLag)
    }
}
