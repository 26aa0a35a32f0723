#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseMessages
import Metrics
import ProtoMapping
import Synchronization

/// The event log: what the device and the services did, numbered in one order.
///
/// Invariants:
/// - Sequences are 1, 2, 3… in the order events are committed; a follower sees every
///   committed event once, in that order, or is told it fell behind (see `EventFollower`):
///   it is a cursor into this log, which it reads page by page, and holds no copy of it.
/// - While the clock conductor holds the log (`hold()`), events wait; `commitHeld()`
///   commits them ordered by their instant, then by source (timeline, activity,
///   gateway), then as they arrived from that source — so a clock step whose services
///   streamed concurrently gives the same log every time.
/// - At most `capacity` events are kept; older ones are dropped from the front.
package final class EventLog: Sendable {
    package enum Source: Int, Sendable, Comparable {
        case timeline, activity, gateway
        package static func < (a: Source, b: Source) -> Bool { a.rawValue < b.rawValue }
    }

    struct Pending {
        var event: KeptEvents.Prepared
        var source: Source
        var instant: Date
        var leads: Bool
    }

    struct State {
        var kept = KeptEvents()
        var lastSequence: UInt64 = 0
        var holds = 0
        var pending: [Pending] = []
        var followers: [Int: FollowerState] = [:]
        var nextFollower = 0
        /// `finish()` was called (shutdown): a follower gets what was committed before, then the end.
        var finished = false

        /// The sequence of the oldest event kept, or of the next one when none is.
        var firstKeptSequence: UInt64 { kept.isEmpty ? lastSequence + 1 : kept.firstSequence }
    }

    package struct Filter: Sendable {
        package var kinds: Set<String>
        package var bundleID: String

        package init(kinds: [String] = [], bundleID: String = "") {
            self.kinds = Set(kinds)
            self.bundleID = bundleID
        }

        func matches(kind: String, bundleID: String) -> Bool {
            (kinds.isEmpty || kinds.contains(kind)) && (self.bundleID.isEmpty || bundleID == self.bundleID)
        }
    }

    package let capacity: Int
    let state = Mutex(State())

    package init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    package var lastSequence: UInt64 { state.withLock { $0.lastSequence } }

    /// Records an event (committed now, or held while the log is held). A held event that
    /// `leads` goes before the other held ones: the cause of what the services streamed
    /// meanwhile (a tap's intent before the entries its reload brought).
    package func append(_ event: GlimpseGatewayV1.Event, source: Source, leads: Bool = false) {
        let instant = event.at.map(Date.init) ?? .distantPast
        let event = KeptEvents.Prepared(event)  // encoded outside the lock; held events wait as bytes too
        let (woken, committed) = state.withLock { state -> ([UnsafeContinuation<Void, any Error>], UInt64?) in
            if state.holds > 0 {
                state.pending.append(Pending(event: event, source: source, instant: instant, leads: leads))
                return ([], nil)  // `commitHeld` records the size once for all of them
            }
            var woken: [UnsafeContinuation<Void, any Error>] = []
            commit(event, in: &state, waking: &woken)
            return (woken, state.lastSequence)
        }
        for follower in woken { follower.resume() }  // outside the lock: they take it at once
        // A gauge a few events behind is current enough.
        if let committed, committed % 256 == 0 { recordSize() }
    }

    /// `glimpse_gateway_event_log_events` and `_bytes` (what the kept events take in memory).
    private func recordSize() {
        let (events, bytes) = state.withLock { ($0.kept.count, $0.kept.heldBytes) }
        Gauge(label: "glimpse_gateway_event_log_events").record(events)
        Gauge(label: "glimpse_gateway_event_log_bytes").record(bytes)
    }

    /// Events wait until `commitHeld()`/`release()`.
    package func hold() { state.withLock { $0.holds += 1 } }

    /// Commits the events held so far in their canonical order; the log stays held.
    package func commitHeld() {
        commitHeld(releasing: false)
    }

    /// Commits what is held and stops holding.
    package func release() {
        commitHeld(releasing: true)
    }

    /// Commits what is held and, `releasing`, drops one hold under the same lock: an event
    /// appended in between would otherwise wait, held, for the next release, logged after
    /// events that came later (and after what its waiter did next).
    private func commitHeld(releasing: Bool) {
        let woken = state.withLock { state -> [UnsafeContinuation<Void, any Error>] in
            let held = state.pending.enumerated().sorted { a, b in
                if a.element.leads != b.element.leads { return a.element.leads }
                return (a.element.instant, a.element.source, a.offset) < (b.element.instant, b.element.source, b.offset)
            }
            state.pending = []
            var woken: [UnsafeContinuation<Void, any Error>] = []
            for item in held { commit(item.element.event, in: &state, waking: &woken) }
            if releasing { state.holds = max(0, state.holds - 1) }
            return woken
        }
        for follower in woken { follower.resume() }
        recordSize()
    }

    /// Numbers and keeps `event`; followers waiting for one it matches go to `waking`, to
    /// be resumed once the lock is released, and a follower now too far behind is marked
    /// (see `FollowerState.committed`).
    private func commit(
        _ event: KeptEvents.Prepared, in state: inout State, waking: inout [UnsafeContinuation<Void, any Error>]
    ) {
        state.lastSequence += 1
        state.kept.append(event, sequence: state.lastSequence)
        if state.kept.count > capacity { state.kept.removeFirst() }
        for id in state.followers.keys {
            if let waiter = state.followers[id]!.committed(event, lastSequence: state.lastSequence) {
                waking.append(waiter)
            }
        }
    }

    /// Up to `limit` events after `after` that pass `filter`.
    package func list(after: UInt64, limit: Int, filter: Filter) -> [GlimpseGatewayV1.Event] {
        let copied = state.withLock { state in
            var result: [KeptEvents.Copied] = []
            for index in Self.startIndex(after: after, in: state)..<state.kept.count
            where state.kept.matches(filter, at: index) {
                result.append(state.kept.copy(at: index))
                if result.count == limit { break }
            }
            return result
        }
        return copied.map(\.event)  // read back outside the lock
    }

    /// The index in `state.kept` of the first event after sequence `after`.
    static func startIndex(after: UInt64, in state: State) -> Int {
        guard !state.kept.isEmpty else { return 0 }
        let firstKept = state.kept.firstSequence
        guard after >= firstKept else { return 0 }
        return Int(min(UInt64(state.kept.count), after - firstKept + 1))
    }

    /// How many bytes of encoded events one chunk of the log holds.
    package static var chunkBytes: Int { KeptEvents.chunkSize }

    /// The bytes the kept events take (their encoded bytes in chunks, and their slots).
    package var keptBytes: Int { state.withLock { $0.kept.heldBytes } }

    /// Ends every follower once it has what was committed so far, and every one that
    /// comes later likewise (shutdown).
    package func finish() {
        let waiting = state.withLock { state -> [UnsafeContinuation<Void, any Error>] in
            state.finished = true
            return state.followers.keys.compactMap { state.followers[$0]!.takeWaiter() }
        }
        for follower in waiting { follower.resume() }
    }

    /// True once `finish()` ended the followers: a follower's end is the gateway stopping,
    /// not it falling behind.
    package var isFinished: Bool { state.withLock { $0.finished } }
}

extension GlimpseGatewayV1.Event {
    /// An event at `at` of `kind` for `bundleID`, with its one-line summary.
    /// An event of the log; its `kind` is the detail's name (`entry_changed`…), from the oneof.
    init(at: Date, bundleID: String = "", summary: String, detail: Detail) {
        self.init()
        self.at = GoogleProtobuf.Timestamp(at)
        self.bundleId = bundleID
        self.summary = summary
        self.detail = detail
        self.kind = detail.protoFieldName
    }
}
