/// The per-placement decisions: which entry shows, and when the next call may go out.
extension PlacementRecord {
    /// The next provider call: the earliest of a free request, a retry, and the
    /// policy/explicit request gated by spacing and budget (ungated while the app is
    /// active). Nil while a call is in flight or when nothing is wanted.
    func plan(now: Seconds, rules: ReloadRules, appActive: Bool) -> ReloadPlan? {
        guard !isFetching else { return nil }
        var best: ReloadPlan?
        func consider(_ plan: ReloadPlan) {
            if best == nil || plan.time < best!.time { best = plan }
        }
        if freeRequestedAt.isFinite {
            consider(ReloadPlan(time: freeRequestedAt, wantedAt: freeRequestedAt, mode: .free, reason: pendingReason))
        }
        if retryAt.isFinite {
            consider(ReloadPlan(time: retryAt, wantedAt: inFlightWantedAt, mode: .retry, reason: inFlightReason))
        }
        let policyWanted = rules.stretched(policyDueAt, since: lastReloadAt)
        let wanted = min(policyWanted, requestedAt)
        if wanted.isFinite {
            let reason: ReloadReason = requestedAt <= policyWanted ? .appRequest : .policy
            if appActive {
                consider(ReloadPlan(time: wanted, wantedAt: wanted, mode: .free, reason: reason))
            } else {
                let gate = max(
                    lastReloadAt + rules.spacing,
                    budget.earliestCharge(at: now, window: rules.window, limit: rules.limit))
                consider(ReloadPlan(time: max(wanted, gate), wantedAt: wanted, mode: .charged, reason: reason))
            }
        }
        return best
    }

    /// When this placement next needs the scheduler: its next entry date, its call's
    /// timeout, or its planned call.
    func wake(now: Seconds, rules: ReloadRules, appActive: Bool) -> Seconds {
        var wake = Seconds.infinity
        if let timeline, Int(shownIndex) + 1 < timeline.count {
            wake = timeline.date(at: Int(shownIndex) + 1)
        }
        if isFetching {
            wake = min(wake, inFlightSince + rules.timeout)
        } else if let plan = plan(now: now, rules: rules, appActive: appActive) {
            wake = min(wake, plan.time)
        }
        return wake
    }

    /// Moves `shownIndex` to the latest entry dated ≤ now; true when it moved.
    mutating func advanceShownEntry(to now: Seconds) -> Bool {
        guard let timeline else { return false }
        let index = Int32(timeline.index(at: now) ?? -1)
        guard index != shownIndex else { return false }
        shownIndex = index
        return true
    }

    /// The entry last reported shown; nil is the placeholder.
    var shownEntry: TimelineEntry? {
        guard shownIndex >= 0, let timeline else { return nil }
        return timeline.entry(at: Int(shownIndex))
    }

    /// Records an explicit or free request made at `now`, to go out no earlier than `at`.
    mutating func request(_ reason: ReloadReason, at: Seconds) {
        if reason.isFree {
            freeRequestedAt = min(freeRequestedAt, at)
            pendingReason = max(pendingReason, reason)
        } else {
            requestedAt = min(requestedAt, at)
        }
    }

    /// Marks the call of `plan` as dispatched; every pending request rides on it.
    mutating func dispatch(_ plan: ReloadPlan, sequence: UInt32, now: Seconds, rules: ReloadRules) {
        if plan.mode != .retry {
            failures = 0
            lastReloadAt = now
            inFlightCharged = plan.mode == .charged
            inFlightReason = plan.reason
            inFlightWantedAt = plan.wantedAt
            if inFlightCharged { budget.charge(at: now, window: rules.window) }
        }
        requestedAt = .infinity
        freeRequestedAt = .infinity
        policyDueAt = .infinity
        retryAt = .infinity
        pendingReason = .policy
        fetchSequence = sequence
        inFlightSince = now
    }
}
