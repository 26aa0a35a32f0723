#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseVocabulary

/// Time: what is due, doing it, and keeping each placement's one wake-up in the queue.
extension TimelineScheduler {
    /// The earliest instant with work due, or nil. Drive a `VirtualClock` with it:
    /// `clock.advance(to: t, nextDeadline: { s.nextDeadline() }, fire: { _ in s.fireDue() })`.
    package mutating func nextDeadline() -> Date? {
        let next = nextDueTime()
        return next.isFinite ? Date(timeIntervalSinceReferenceDate: next) : nil
    }

    /// The earlier of the first live wake-up and the first live timeout; `.infinity` if none.
    mutating func nextDueTime() -> Seconds {
        min(queue.peek(in: records)?.time ?? .infinity, timeouts.peek(in: records)?.time ?? .infinity)
    }

    /// Does everything due by `clock.now`, earliest first: entry changes, provider calls
    /// (within budget), timeouts and retries.
    package mutating func fireDue() -> [TimelineEffect] {
        let (t, rules) = (now, rules)
        var effects: [TimelineEffect] = []
        warm(dueBy: t)
        while true {
            let wake = queue.peek(in: records)
            let timeout = timeouts.peek(in: records)
            if let timeout, timeout.time <= t, timeout.time < wake?.time ?? .infinity {
                timeouts.popFirst()
                handledWakeUps &+= 1
                effects.append(.cancelFetch(FetchID(slot: timeout.slot, sequence: timeout.sequence)))
                fail(timeout.slot, now: t, rules: rules, effects: &effects)
            } else if let wake, wake.time <= t {
                // The item stays on top while its placement fires; the new wake-up replaces it.
                records[Int(wake.slot)].wakeAt = .infinity
                handledWakeUps &+= 1
                fire(wake.slot, now: t, rules: rules, effects: &effects)
            } else {
                break
            }
        }
        finish(&effects)
        return effects
    }

    /// Reads a word of each due placement's record and timeline before the in-order pass,
    /// and its reload budget when a charged reload may be due. The reads are
    /// independent, so the processor overlaps their cache misses; the sum is kept only so
    /// the reads are not optimized away. A guess that turns out wrong costs a read.
    mutating func warm(dueBy t: Seconds) {
        guard queue.peek(in: records).map({ $0.time <= t }) == true else { return }
        var sum: UInt64 = 0
        queue.forEachDrained(dueBy: t) { slot in
            let i = Int(slot)
            let record = records[i]
            sum &+= UInt64(record.fetchSequence) &+ UInt64(record.nextEntryAt.bitPattern)
            if !record.isFetching, min(record.policyDueAt, record.requestedAt) <= t {
                sum &+= UInt64(budgets[i].held.charges)
            }
            if let timeline = timelines[i] {
                let next = Int(record.shownIndex) + 1
                sum &+= UInt64(timeline.count)
                if next < timeline.count { sum &+= timeline.date(at: next).bitPattern }
            }
        }
        warmth = sum
    }

    mutating func fire(_ slot: UInt32, now t: Seconds, rules: ReloadRules, effects: inout [TimelineEffect]) {
        let i = Int(slot)
        if records[i].nextEntryAt <= t, let timeline = timelines[i] {
            var index = Int(records[i].shownIndex)
            while timeline.date(after: index) <= t { index += 1 }
            records[i].nextEntryAt = timeline.date(after: index)
            if index != Int(records[i].shownIndex) {
                records[i].shownIndex = Int32(index)
                effects.append(.entryChanged(records[i].id, index >= 0 ? ShownEntry(timeline, index) : nil))
            }
        }
        let record = records[i]
        if let plan = record.plan(rules: rules, appActive: isAppActive(record)), plan.time <= t {
            fetchCounter &+= 1
            records[i].dispatch(plan, sequence: fetchCounter, now: t)
            timeouts.push(TimeoutQueue.Item(time: t + rules.timeout, slot: slot, sequence: fetchCounter))
            if plan.mode == .charged {
                records[i].budgetAllowsAt = budgets[i].charge(at: t, window: rules.window, limit: rules.limit)
            }
            effects.append(.fetchTimeline(fetchRequest(slot: slot, plan: plan)))
        }
        reschedule(slot, rules: rules, replacingTop: true)
    }

    func fetchRequest(slot: UInt32, plan: ReloadPlan) -> FetchRequest {
        let record = records[Int(slot)]
        return FetchRequest(
            id: FetchID(slot: slot, sequence: record.fetchSequence),
            placement: record.id,
            app: apps[Int(record.app)].id,
            kind: kinds[Int(record.kind)].widget.kind,
            context: context(of: slot),
            reason: plan.reason,
            charged: plan.mode == .charged,
            retry: plan.mode == .retry ? Int(record.failures) : 0,
            wantedAt: Date(timeIntervalSinceReferenceDate: plan.wantedAt),
            dueAt: Date(timeIntervalSinceReferenceDate: plan.time))
    }

    /// Puts the placement's wake-up in the queue if it moved; the old item goes stale.
    /// `replacingTop`: the placement's item is the queue's top and has just fired, so the
    /// new wake-up takes its place (or it is removed).
    mutating func reschedule(_ slot: UInt32, rules: ReloadRules, replacingTop: Bool = false) {
        let i = Int(slot)
        let record = records[i]
        let wake = record.wake(rules: rules, appActive: isAppActive(record))
        guard wake != record.wakeAt else {
            if replacingTop { queue.popMin() }
            return
        }
        records[i].generation &+= 1
        records[i].wakeAt = wake
        let item = WakeQueue.Item(time: wake, slot: slot, generation: records[i].generation)
        if replacingTop {
            if wake.isFinite { queue.replaceMin(with: item) } else { queue.popMin() }
        } else if wake.isFinite {
            queue.push(item)
            queue.compactIfNeeded(in: records, liveCount: slotOf.count)
        }
    }

    /// Ends a call's effects with `.nextWakeUp` when the earliest deadline moved.
    mutating func finish(_ effects: inout [TimelineEffect]) {
        let next = nextDueTime()
        guard next != announcedWake else { return }
        announcedWake = next
        effects.append(.nextWakeUp(next.isFinite ? Date(timeIntervalSinceReferenceDate: next) : nil))
    }
}
