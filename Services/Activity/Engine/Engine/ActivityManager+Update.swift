#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseVocabulary

extension ActivityManager {
    /// ActivityKit's `update(_:alertConfiguration:timestamp:)`; `timestamp` defaults to
    /// now, as ActivityKit's does. Dropped when older than the last applied change,
    /// ignored once ended, refused when the content state is too large.
    mutating func performUpdate(
        _ id: ActivityID, content: ActivityContent, alert: AlertConfiguration?, timestamp: Date?
    ) -> UpdateResult {
        fireDueTimers()
        return applyUpdate(id, content: content, alert: alert, timestamp: timestamp ?? clock.now)
    }

    /// ActivityKit's `end(_:dismissalPolicy:timestamp:)`. Without `content` the last
    /// content stays. `.immediate` (or a dismissal date not after now) dismisses at once.
    mutating func performEnd(
        _ id: ActivityID, content: ActivityContent?, dismissalPolicy: DismissalPolicy, timestamp: Date?
    ) -> EndResult {
        fireDueTimers()
        return applyEnd(
            id, content: content, policy: dismissalPolicy,
            timestamp: timestamp ?? clock.now, reason: .endedByApp)
    }

    /// The user swiped the activity away: it ends (if it had not) and is dismissed.
    /// Returns false for an unknown activity.
    mutating func performUserDismissal(_ id: ActivityID) -> Bool {
        fireDueTimers()
        guard let i = activities.index(forKey: id) else { return false }
        let now = clock.now
        let app = activities.values[i].app
        if activities.values[i].state.isOngoing {
            let t = activities.values[i].end(now: now, policy: .immediate, config: config, reason: .dismissedByUser)
            record(t, of: id, app: app)
        }
        let t = activities.values[i].dismiss(now: now, reason: .dismissedByUser)
        record(t, of: id, app: app)
        remove(at: i)
        return true
    }

    mutating func applyUpdate(
        _ id: ActivityID, content: ActivityContent, alert: AlertConfiguration?, timestamp: Date
    ) -> UpdateResult {
        guard let i = activities.index(forKey: id) else { return .unknownActivity }
        let current = activities.values[i]
        guard current.state.isOngoing else { return .ignoredBecauseEnded(current.state) }
        if let reason = timestampDrop(timestamp, of: current) { return .droppedAsStale(reportDrop(reason, of: id)) }
        guard fits(content, attributes: current.attributes) else { return .rejected(.attributesTooLarge) }
        let t = activities.values[i].apply(content, alert: alert, timestamp: timestamp, now: clock.now)
        emit(.contentUpdated(id, content, alert: alert))
        record(t, of: id, app: current.app)
        queueTimers(at: i)
        return .applied(activities.values[i].state)
    }

    mutating func applyEnd(
        _ id: ActivityID, content: ActivityContent?, policy: DismissalPolicy,
        timestamp: Date, reason: TransitionReason
    ) -> EndResult {
        guard let i = activities.index(forKey: id) else { return .unknownActivity }
        let current = activities.values[i]
        guard current.state.isOngoing else { return .ignoredBecauseEnded(current.state) }
        if let drop = timestampDrop(timestamp, of: current) { return .droppedAsStale(reportDrop(drop, of: id)) }
        let now = clock.now
        if let content {
            guard fits(content, attributes: current.attributes) else { return .rejected(.attributesTooLarge) }
            activities.values[i].content = content
            emit(.contentUpdated(id, content, alert: nil))
        }
        activities.values[i].lastTimestamp = timestamp
        return finish(at: i, now: now, policy: policy, reason: reason)
    }

    /// Why a change stamped `timestamp` loses: further ahead than the future limit, or
    /// older than the last applied change; nil when it applies.
    func timestampDrop(_ timestamp: Date, of record: ActivityRecord) -> DropReason? {
        futureDrop(timestamp) ?? record.dropReason(for: timestamp)
    }

    func futureDrop(_ timestamp: Date) -> DropReason? {
        let limit = clock.now.addingTimeInterval(config.futureTimestampLimit)
        return timestamp > limit ? .timestampTooFarInFuture(timestamp: timestamp, limit: limit) : nil
    }

    /// Records a dropped change where watchers see it, and hands the reason back.
    mutating func reportDrop(_ reason: DropReason, of id: ActivityID) -> DropReason {
        emit(.changeDropped(id, reason))
        return reason
    }

    /// Ends the record at `i` and dismisses it at once if its policy says so.
    mutating func finish(
        at i: Dictionary<ActivityID, ActivityRecord>.Index, now: Date,
        policy: DismissalPolicy, reason: TransitionReason
    ) -> EndResult {
        let id = activities.keys[i]
        let app = activities.values[i].app
        let t = activities.values[i].end(now: now, policy: policy, config: config, reason: reason)
        deferredPushes[id] = nil
        record(t, of: id, app: app)
        let dismissalDate = activities.values[i].dismissalDate ?? now
        if dismissalDate <= now {
            let d = activities.values[i].dismiss(now: now, reason: .dismissedImmediately)
            record(d, of: id, app: app)
            remove(at: i)
            return .applied(.dismissed, dismissalDate: now)
        }
        queueTimers(at: i)
        return .applied(.ended, dismissalDate: dismissalDate)
    }
}
