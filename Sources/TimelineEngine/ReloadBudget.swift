/// One placement's charged reloads over the rolling window.
///
/// Invariants: `charges` is in time order; a charge at t counts while now < t + window,
/// so with `limit` charges inside the window the next charged reload may happen exactly
/// when the oldest of the last `limit` ages out — deferred, never refused.
struct ReloadBudget {
    private var charges: ContiguousArray<Seconds> = []

    /// Charged reloads inside the window ending at `now`.
    func used(at now: Seconds, window: Seconds) -> Int {
        charges.count - firstLive(at: now, window: window)
    }

    /// The earliest time ≥ now at which one more charged reload fits.
    func earliestCharge(at now: Seconds, window: Seconds, limit: Int) -> Seconds {
        guard limit > 0 else { return .infinity }
        let live = charges.count - firstLive(at: now, window: window)
        guard live >= limit else { return now }
        return charges[charges.count - limit] + window
    }

    /// Records a charged reload at `now`, forgetting charges that have aged out.
    mutating func charge(at now: Seconds, window: Seconds) {
        let dead = firstLive(at: now, window: window)
        if dead > 0 { charges.removeFirst(dead) }
        charges.append(now)
    }

    private func firstLive(at now: Seconds, window: Seconds) -> Int {
        var i = 0
        while i < charges.count, charges[i] + window <= now { i += 1 }
        return i
    }
}
