#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import GlimpseMessages
import ProtoMapping
import Synchronization

/// The event log: what the device and the services did, numbered in one order.
///
/// Invariants:
/// - Sequences are 1, 2, 3… in the order events are committed; a follower sees every
///   committed event once, in that order (its backlog is taken and it is registered under
///   one lock).
/// - While the clock conductor holds the log (`hold()`), events wait; `commitHeld()`
///   commits them ordered by their instant, then by source (timeline, activity,
///   gateway), then as they arrived from that source — so a clock step whose services
///   streamed concurrently gives the same log every time.
/// - At most `capacity` events are kept; older ones are dropped from the front.
public final class EventLog: Sendable {
    public enum Source: Int, Sendable, Comparable {
        case timeline, activity, gateway
        public static func < (a: Source, b: Source) -> Bool { a.rawValue < b.rawValue }
    }

    private struct Pending {
        var event: GlimpseGatewayV1.Event
        var source: Source
        var instant: Date
        var leads: Bool
    }

    private struct State {
        var events: [GlimpseGatewayV1.Event] = []
        var first = 0                     // index of the oldest kept event in `events`
        var lastSequence: UInt64 = 0
        var holds = 0
        var pending: [Pending] = []
        var followers: [Int: Follower] = [:]
        var nextFollower = 0
        /// `finish()` was called (shutdown): a new follower gets the backlog, then the end.
        var finished = false
    }

    private struct Follower {
        var continuation: AsyncStream<GlimpseGatewayV1.Event>.Continuation
        var filter: Filter
    }

    public struct Filter: Sendable {
        public var kinds: Set<String>
        public var bundleID: String

        public init(kinds: [String] = [], bundleID: String = "") {
            self.kinds = Set(kinds)
            self.bundleID = bundleID
        }

        func matches(_ event: GlimpseGatewayV1.Event) -> Bool {
            (kinds.isEmpty || kinds.contains(event.kind)) && (bundleID.isEmpty || event.bundleId == bundleID)
        }
    }

    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    public var lastSequence: UInt64 { state.withLock { $0.lastSequence } }

    /// Records an event (committed now, or held while the log is held). A held event that
    /// `leads` goes before the other held ones: the cause of what the services streamed
    /// meanwhile (a tap's intent before the entries its reload brought).
    public func append(_ event: GlimpseGatewayV1.Event, source: Source, leads: Bool = false) {
        let instant = event.at.map(Date.init) ?? .distantPast
        let behind = state.withLock { state -> [AsyncStream<GlimpseGatewayV1.Event>.Continuation] in
            if state.holds > 0 {
                state.pending.append(Pending(event: event, source: source, instant: instant, leads: leads))
                return []
            }
            var behind: [AsyncStream<GlimpseGatewayV1.Event>.Continuation] = []
            commit(event, in: &state, behind: &behind)
            return behind
        }
        // Outside the lock: ending a stream runs its termination handler, which takes it.
        for continuation in behind { continuation.finish() }
    }

    /// Events wait until `commitHeld()`/`release()`.
    public func hold() { state.withLock { $0.holds += 1 } }

    /// Commits the events held so far in their canonical order; the log stays held.
    public func commitHeld() {
        let behind = state.withLock { state -> [AsyncStream<GlimpseGatewayV1.Event>.Continuation] in
            let held = state.pending.enumerated().sorted { a, b in
                if a.element.leads != b.element.leads { return a.element.leads }
                return (a.element.instant, a.element.source, a.offset) < (b.element.instant, b.element.source, b.offset)
            }
            state.pending = []
            var behind: [AsyncStream<GlimpseGatewayV1.Event>.Continuation] = []
            for item in held { commit(item.element.event, in: &state, behind: &behind) }
            return behind
        }
        for continuation in behind { continuation.finish() }
    }

    /// Commits what is held and stops holding.
    public func release() {
        commitHeld()
        state.withLock { $0.holds = max(0, $0.holds - 1) }
    }

    /// Numbers and keeps `event` and hands it to the followers; a follower whose backlog
    /// is full is removed and goes to `behind`, to be ended once the lock is released.
    private func commit(
        _ event: GlimpseGatewayV1.Event, in state: inout State,
        behind: inout [AsyncStream<GlimpseGatewayV1.Event>.Continuation]
    ) {
        var event = event
        state.lastSequence += 1
        event.sequence = state.lastSequence
        state.events.append(event)
        if state.events.count - state.first > capacity { state.first += 1 }
        if state.first > 4096, state.first * 2 > state.events.count {
            state.events.removeFirst(state.first)
            state.first = 0
        }
        for (id, follower) in state.followers where follower.filter.matches(event) {
            // A follower whose backlog is full is ended, never silently skipped.
            if case .dropped = follower.continuation.yield(event) {
                state.followers.removeValue(forKey: id)
                behind.append(follower.continuation)
            }
        }
    }

    /// Up to `limit` events after `after` that pass `filter`.
    public func list(after: UInt64, limit: Int, filter: Filter) -> [GlimpseGatewayV1.Event] {
        state.withLock { state in
            var result: [GlimpseGatewayV1.Event] = []
            for event in state.events[Self.startIndex(after: after, in: state)...] where filter.matches(event) {
                result.append(event)
                if result.count == limit { break }
            }
            return result
        }
    }

    private static func startIndex(after: UInt64, in state: State) -> Int {
        guard let firstKept = state.events[state.first...].first?.sequence else { return state.events.count }
        guard after >= firstKept else { return state.first }
        return min(state.events.count, state.first + Int(after - firstKept) + 1)
    }

    /// The events after `after`, then every event committed from now on, until the
    /// consumer stops iterating. A follower further than `backlogLimit` events behind is
    /// ended (it can list and follow again from where it was).
    public func follow(after: UInt64, filter: Filter, backlogLimit: Int = 1_000_000) -> AsyncStream<GlimpseGatewayV1.Event> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: GlimpseGatewayV1.Event.self, bufferingPolicy: .bufferingOldest(backlogLimit))
        let id = state.withLock { state -> Int? in
            for event in state.events[Self.startIndex(after: after, in: state)...] where filter.matches(event) {
                continuation.yield(event)
            }
            if state.finished { return nil }
            let id = state.nextFollower
            state.nextFollower += 1
            state.followers[id] = Follower(continuation: continuation, filter: filter)
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.followers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every follower, and every one that comes later (shutdown).
    public func finish() {
        let followers = state.withLock { state in
            defer { state.followers = [:] }
            state.finished = true
            return Array(state.followers.values)
        }
        for follower in followers { follower.continuation.finish() }
    }

    /// True once `finish()` ended the followers: a follower's end is the gateway stopping,
    /// not it falling behind.
    public var isFinished: Bool { state.withLock { $0.finished } }
}

extension GlimpseGatewayV1.Event {
    /// An event at `at` of `kind` for `bundleID`, with its one-line summary.
    init(at: Date, kind: String, bundleID: String = "", summary: String, detail: Detail) {
        self.init()
        self.at = GoogleProtobuf.Timestamp(at)
        self.kind = kind
        self.bundleId = bundleID
        self.summary = summary
        self.detail = detail
    }
}
