#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Time: what is due, doing it, and keeping each placement's one wake-up in the queue.
extension TimelineScheduler {
    /// The earliest instant with work due, or nil. Drive a `VirtualClock` with it:
    /// `clock.advance(to: t, nextDeadline: { s.nextDeadline() }, fire: { _ in s.fireDue() })`.
    public mutating func nextDeadline() -> Date? {
        queue.peek(in: records).map { Date(timeIntervalSinceReferenceDate: $0.time) }
    }

    /// Does everything due by `clock.now`, earliest first: entry changes, provider calls
    /// (within budget), timeouts and retries.
    public mutating func fireDue() -> [TimelineEffect] {
        let t = now
        var effects: [TimelineEffect] = []
        while let item = queue.peek(in: records), item.time <= t {
            queue.popMin()
            records[Int(item.slot)].wakeAt = .infinity
            fire(item.slot, now: t, effects: &effects)
        }
        finish(&effects)
        return effects
    }

    mutating func fire(_ slot: UInt32, now t: Seconds, effects: inout [TimelineEffect]) {
        let i = Int(slot)
        if records[i].advanceShownEntry(to: t) {
            effects.append(.entryChanged(records[i].id, records[i].shownEntry))
        }
        let rules = rules
        if records[i].isFetching {
            if t >= records[i].inFlightSince + rules.timeout {
                effects.append(.cancelFetch(FetchID(slot: slot, sequence: records[i].fetchSequence)))
                fail(slot, effects: &effects)
            }
        } else if let plan = records[i].plan(now: t, rules: rules, appActive: isAppActive(kind: records[i].kind)),
                  plan.time <= t
        {
            fetchCounter &+= 1
            records[i].dispatch(plan, sequence: fetchCounter, now: t, rules: rules)
            effects.append(.fetchTimeline(fetchRequest(slot: slot, plan: plan)))
        }
        reschedule(slot)
    }

    func fetchRequest(slot: UInt32, plan: ReloadPlan) -> FetchRequest {
        let record = records[Int(slot)]
        let kind = kinds[Int(record.kind)]
        return FetchRequest(
            id: FetchID(slot: slot, sequence: record.fetchSequence),
            placement: record.id,
            app: apps[Int(kind.app)].id,
            kind: kind.widget.kind,
            context: context(of: record),
            reason: plan.reason,
            charged: plan.mode == .charged,
            retry: plan.mode == .retry ? Int(record.failures) : 0,
            wantedAt: Date(timeIntervalSinceReferenceDate: plan.wantedAt),
            dueAt: Date(timeIntervalSinceReferenceDate: plan.time))
    }

    /// Puts the placement's wake-up in the queue if it moved; the old item goes stale.
    mutating func reschedule(_ slot: UInt32) {
        let i = Int(slot)
        let wake = records[i].wake(now: now, rules: rules, appActive: isAppActive(kind: records[i].kind))
        guard wake != records[i].wakeAt else { return }
        records[i].generation &+= 1
        records[i].wakeAt = wake
        if wake.isFinite {
            queue.push(WakeQueue.Item(time: wake, slot: slot, generation: records[i].generation))
            queue.compactIfNeeded(in: records, liveCount: slotOf.count)
        }
    }

    /// Ends a call's effects with `.nextWakeUp` when the earliest deadline moved.
    mutating func finish(_ effects: inout [TimelineEffect]) {
        let next = queue.peek(in: records)?.time ?? .infinity
        guard next != announcedWake else { return }
        announcedWake = next
        effects.append(.nextWakeUp(next.isFinite ? Date(timeIntervalSinceReferenceDate: next) : nil))
    }
}
