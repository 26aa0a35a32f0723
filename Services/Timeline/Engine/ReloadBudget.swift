import GlimpseVocabulary
/// One placement's charged reloads over the rolling window.
///
/// Invariants: `charges` is in time order; a charge at t counts while now < t + window,
/// so with `limit` charges inside the window the next charged reload may happen exactly
/// when the oldest of the last `limit` ages out — deferred, never refused.
struct ReloadBudget: Codable {
    private var charges: ContiguousArray<Seconds> = []

    /// Charges held, and the bytes their storage takes (statistics).
    var held: (charges: Int, bytes: Int) { (charges.count, charges.capacity * MemoryLayout<Seconds>.stride) }

    /// Charged reloads inside the window ending at `now`.
    func used(at now: Seconds, window: Seconds) -> Int {
        charges.count - firstLive(at: now, window: window)
    }

    /// The oldest charged reload still inside the window ending at `now`.
    func oldest(at now: Seconds, window: Seconds) -> Seconds? {
        let first = firstLive(at: now, window: window)
        return first < charges.count ? charges[first] : nil
    }

    /// Records a charged reload at `now`, forgetting charges that have aged out, and
    /// returns the earliest time the next charged reload fits (`-infinity`: any time).
    mutating func charge(at now: Seconds, window: Seconds, limit: Int) -> Seconds {
        let dead = firstLive(at: now, window: window)
        if dead > 0 { charges.removeFirst(dead) }
        // Grown two at a time, not doubled: a million placements each hold a day of charges.
        if charges.count == charges.capacity { charges.reserveCapacity(charges.count + 2) }
        charges.append(now)
        guard limit > 0 else { return .infinity }
        return charges.count >= limit ? charges[charges.count - limit] + window : -.infinity
    }

    private func firstLive(at now: Seconds, window: Seconds) -> Int {
        var i = 0
        while i < charges.count, charges[i] + window <= now { i += 1 }
        return i
    }
}
