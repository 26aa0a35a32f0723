#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseVocabulary
import GlimpseJSON

extension ActivityManager {
    /// The earliest instant something may be due: never later than the next real
    /// deadline (it may be earlier when a timer moved; firing then does nothing).
    package func nextDeadline() -> Date? { deadlines.next }

    /// Fires every timer due at `clock.now`, in time order: scheduled starts, stale
    /// dates, the 8 h end, dismissals, token issues and delayed pushes. Each fires at
    /// its own instant (an 8 h end fired late still ends at activation + 8 h).
    package mutating func fireDue() -> [ActivityEvent] {
        fireDueTimers()
        return takeEvents()
    }

    /// `fireDue()` leaving the events for the call that is running to return.
    /// - Returns: how many timers fired.
    @discardableResult
    mutating func fireDueTimers() -> Int {
        let now = clock.now
        var fired = 0
        while let entry = deadlines.popDue(now: now) {
            guard let i = activities.index(forKey: entry.id) else { continue }
            var slot = activities.values[i].timers[entry.kind]
            guard slot.queued == entry.at, let due = slot.due else {
                if slot.queued == entry.at { activities.values[i].timers[entry.kind].queued = nil }
                continue
            }
            slot.queued = nil
            if due > now {  // moved later since it was queued
                slot.queued = due
                deadlines.insert(entry.id, entry.kind, at: due)
            } else {
                slot.due = nil
            }
            activities.values[i].timers[entry.kind] = slot
            guard due <= now else { continue }
            fire(entry.kind, at: i, instant: due)
            fired += 1
        }
        if deadlines.count > compactionThreshold { compactDeadlines() }
        return fired
    }

    private mutating func fire(_ kind: TimerKind, at i: Dictionary<ActivityID, ActivityRecord>.Index, instant: Date) {
        let id = activities.keys[i]
        let app = activities.values[i].app
        switch kind {
        case .scheduledStart:
            guard activities.values[i].state == .pending else { return }
            let t = activities.values[i].activate(now: instant, config: config, reason: .scheduledStartReached)
            record(t, of: id, app: app)
            record(activities.values[i].refreshStaleness(now: instant), of: id, app: app)
            queueTimers(at: i)
        case .stale:
            record(activities.values[i].refreshStaleness(now: instant), of: id, app: app)
            queueTimers(at: i)
        case .maximumDuration:
            guard activities.values[i].state.isOngoing else { return }
            _ = finish(at: i, now: instant, policy: .default, reason: .maximumDurationReached)
        case .dismissal:
            guard activities.values[i].state == .ended else { return }
            record(activities.values[i].dismiss(now: instant, reason: .dismissalDateReached), of: id, app: app)
            remove(at: i)
        case .pushToken:
            guard activities.values[i].state.isOngoing, activities.values[i].pushType == .token,
                activities.values[i].pushToken == nil
            else { return }
            issueUpdateToken(at: i)
        case .deferredPush:
            deliverDeferredPush(at: i)
        }
    }

    /// Rebuilds the heap without entries no slot points at any more.
    mutating func compactDeadlines() {
        let records = activities
        deadlines.compact { entry in records[entry.id]?.timers[entry.kind].queued == entry.at }
        compactionThreshold = max(1024, deadlines.count * 2)
    }
}
