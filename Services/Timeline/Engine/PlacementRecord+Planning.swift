import GlimpseVocabulary
/// The per-placement decisions: when the next call may go out, and when to wake.
extension PlacementRecord {
    /// The next provider call: the earliest of a free request, a retry, and the
    /// policy/explicit request gated by spacing and budget. While the app is active the
    /// budget does not apply, but a provider is still never called in a loop: a policy
    /// reload keeps the spacing after the last reload, and an app's request waits for the
    /// minimum interval. Nil while a call is in flight or when nothing is wanted.
    func plan(rules: ReloadRules, appActive: Bool) -> ReloadPlan? {
        guard !isFetching else { return nil }
        var best: ReloadPlan?
        if freeRequestedAt.isFinite {
            best = ReloadPlan(time: freeRequestedAt, wantedAt: freeRequestedAt, mode: .free, reason: pendingReason)
        }
        if retryAt.isFinite, retryAt < best?.time ?? .infinity {
            best = ReloadPlan(time: retryAt, wantedAt: inFlightWantedAt, mode: .retry, reason: inFlightReason)
        }
        let policyWanted = rules.stretched(policyDueAt, since: lastReloadAt)
        let wanted = min(policyWanted, requestedAt)
        if wanted.isFinite {
            let reason: ReloadReason = requestedAt <= policyWanted ? requestedReason : .policy
            let floor = lastReloadAt + (reason == .policy ? rules.spacing : rules.minimumInterval)
            let plan =
                appActive
                ? ReloadPlan(time: max(wanted, floor), wantedAt: wanted, mode: .free, reason: reason)
                : ReloadPlan(
                    time: max(wanted, lastReloadAt + rules.spacing, budgetAllowsAt),
                    wantedAt: wanted, mode: .charged, reason: reason)
            if plan.time < best?.time ?? .infinity { best = plan }
        }
        return best
    }

    /// When this placement next needs the wake-up queue: its next entry's date, or its
    /// planned call. (A call in flight times out through the `TimeoutQueue`.)
    func wake(rules: ReloadRules, appActive: Bool) -> Seconds {
        guard let plan = plan(rules: rules, appActive: appActive) else { return nextEntryAt }
        return min(nextEntryAt, plan.time)
    }

    /// Records a request made now, to go out no earlier than `at`; `free` says whether
    /// the budget exempts it.
    mutating func request(_ reason: ReloadReason, free: Bool, at: Seconds) {
        if free {
            freeRequestedAt = min(freeRequestedAt, at)
            pendingReason = max(pendingReason, reason)
        } else {
            if at < requestedAt { requestedReason = reason }
            requestedAt = min(requestedAt, at)
        }
    }

    /// Marks the call of `plan` as dispatched; every pending request rides on it.
    mutating func dispatch(_ plan: ReloadPlan, sequence: UInt32, now: Seconds) {
        if plan.mode != .retry {
            failures = 0
            lastReloadAt = now
            inFlightCharged = plan.mode == .charged
            inFlightReason = plan.reason
            inFlightWantedAt = plan.wantedAt
        }
        requestedAt = .infinity
        requestedReason = .appRequest
        freeRequestedAt = .infinity
        policyDueAt = .infinity
        retryAt = .infinity
        pendingReason = .policy
        fetchSequence = sequence
        isFetching = true
    }
}
