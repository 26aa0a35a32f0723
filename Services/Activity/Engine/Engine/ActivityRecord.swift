#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DequeModule
import GlimpseJSON
import GlimpseVocabulary

/// One activity's state machine. The engine keeps these in a dictionary and mutates
/// them in place; each method returns the state transition it caused (if any) and
/// leaves wanted timers in `timers`, which the engine then queues.
///
/// Invariants:
/// - `lastTimestamp` only grows: a change stamped earlier is refused before anything moves.
/// - `ended`/`dismissed` activities take no content changes.
/// - Timers wanted: `scheduledStart` while pending; `stale` while pending/active with
///   a stale date; `maximumDuration` while active/stale; `dismissal` while ended.
struct ActivityRecord: Sendable, Codable {
    struct Transition: Sendable, Hashable {
        var from: ActivityState
        var to: ActivityState
        var reason: TransitionReason
    }

    let id: ActivityID
    let app: AppID
    let attributes: ActivityAttributesPayload
    var content: ActivityContent
    var pushType: PushType?
    var state: ActivityState
    var activatedAt: Date?
    let startOrder: UInt64
    var lastTimestamp: Date?
    var endedAt: Date?
    var dismissalDate: Date?
    var pushToken: PushToken?
    var lastAlert: AlertConfiguration?
    var lastAlertAt: Date?
    var timers = ActivityTimers()
    /// Admitted priority-10 push instants within the last hour (the hourly budget).
    var budgetWindow = Deque<Date>()

    var snapshot: ActivitySnapshot {
        ActivitySnapshot(
            id: id, app: app, attributes: attributes, content: content, state: state,
            pushType: pushType, pushToken: pushToken, activatedAt: activatedAt,
            startOrder: startOrder, endedAt: endedAt, dismissalDate: dismissalDate,
            lastAlert: lastAlert, lastAlertAt: lastAlertAt)
    }

    /// Drop check shared by updates and ends.
    func dropReason(for timestamp: Date) -> DropReason? {
        guard let last = lastTimestamp, timestamp < last else { return nil }
        return .olderThanLastApplied(timestamp: timestamp, last: last)
    }

    /// pending → active, starting the 8 h clock. Callers follow with `refreshStaleness`.
    mutating func activate(now: Date, config: ActivitySettings, reason: TransitionReason) -> Transition {
        let from = state
        state = .active
        activatedAt = now
        timers[.scheduledStart].due = nil
        timers[.maximumDuration].due = now.addingTimeInterval(config.maximumActiveDuration)
        return Transition(from: from, to: .active, reason: reason)
    }

    /// Replaces the content (already checked for order and size).
    mutating func apply(
        _ newContent: ActivityContent, alert: AlertConfiguration?, timestamp: Date, now: Date
    ) -> Transition? {
        content = newContent
        lastTimestamp = timestamp
        if let alert {
            lastAlert = alert
            lastAlertAt = now
        }
        return refreshStaleness(now: now)
    }

    /// active ⇄ stale from the current stale date; keeps the stale timer in step.
    mutating func refreshStaleness(now: Date) -> Transition? {
        let staleDate = content.staleDate
        guard state == .active || state == .stale || state == .pending else { return nil }
        timers[.stale].due = staleDate.flatMap { $0 > now ? $0 : nil }
        let isStale = staleDate.map { $0 <= now } ?? false
        switch (state, isStale) {
        case (.active, true):
            state = .stale
            return Transition(from: .active, to: .stale, reason: .staleDateReached)
        case (.stale, false):
            state = .active
            return Transition(from: .stale, to: .active, reason: .contentRefreshed)
        default:
            return nil
        }
    }

    /// → ended (or straight to dismissed when the dismissal date is now).
    mutating func end(
        now: Date, policy: DismissalPolicy, config: ActivitySettings, reason: TransitionReason
    ) -> Transition {
        let from = state
        state = .ended
        endedAt = now
        timers[.scheduledStart].due = nil
        timers[.stale].due = nil
        timers[.maximumDuration].due = nil
        timers[.deferredPush].due = nil
        timers[.pushToken].due = nil  // an ended activity takes no pushes, so it gets no token
        let date = policy.dismissalDate(endedAt: now, retention: config.lockScreenRetention)
        dismissalDate = date
        timers[.dismissal].due = date > now ? date : nil
        return Transition(from: from, to: .ended, reason: reason)
    }

    mutating func dismiss(now: Date, reason: TransitionReason) -> Transition {
        let from = state
        state = .dismissed
        dismissalDate = now
        timers = ActivityTimers()
        return Transition(from: from, to: .dismissed, reason: reason)
    }
}
