#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Synchronization

/// A clock that moves only when told to.
///
/// Invariants:
/// - `now` never goes backwards: `advance(to:)` with an earlier instant is refused.
/// - `advance(to:driving:)` stops at every deadline the driven work reports, in time
///   order, so work due at 10:05 happens (and can schedule more work) before work due
///   at 10:06, and all of it before the call returns.
package final class VirtualClock: WallClock {
    private let instant: Mutex<Date>

    package init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {  // 2026-01-01T00:00:00Z
        instant = Mutex(start)
    }

    package var now: Date { instant.withLock { $0 } }

    package enum AdvanceError: Error, Equatable {
        case wouldGoBackwards(now: Date, requested: Date)
        /// The driven work kept reporting work due at one instant, `firings` times in a
        /// row, without it going away: a loop that would never let time move.
        case noProgress(at: Date, firings: Int)
    }

    /// How many firings in a row at one instant make an advance give up as stuck.
    package static let sameInstantLimit = 10_000

    /// Moves time forward by `interval` seconds (no driven work).
    package func advance(by interval: TimeInterval) throws {
        try advance(to: now.addingTimeInterval(interval))
    }

    /// Moves time forward to `target` (no driven work).
    package func advance(to target: Date) throws {
        try instant.withLock { current in
            guard target >= current else { throw AdvanceError.wouldGoBackwards(now: current, requested: target) }
            current = target
        }
    }

    /// Moves time forward to `target`, stopping at each deadline on the way.
    ///
    /// - Parameters:
    ///   - nextDeadline: the earliest instant at which the driven work has something due,
    ///     or nil when nothing is scheduled. Asked again after every firing, so work can
    ///     schedule more work inside the interval.
    ///   - fire: called with the clock already set to the deadline; does what is due.
    /// - Returns: how many deadlines fired.
    /// - Throws: `AdvanceError.noProgress` when work stays due at one instant after
    ///   `sameInstantLimit` firings (a loop), instead of never returning.
    @discardableResult
    package func advance(
        to target: Date,
        nextDeadline: () -> Date?,
        fire: (Date) throws -> Void
    ) throws -> Int {
        guard target >= now else { throw AdvanceError.wouldGoBackwards(now: now, requested: target) }
        var fired = 0
        var sameInstant = 0
        while let deadline = nextDeadline(), deadline <= target {
            let current = now
            let at = max(deadline, current)
            sameInstant = at == current && fired > 0 ? sameInstant + 1 : 0
            guard sameInstant < Self.sameInstantLimit else {
                throw AdvanceError.noProgress(at: at, firings: sameInstant)
            }
            try advance(to: at)
            try fire(at)
            fired += 1
        }
        try advance(to: target)
        return fired
    }
}
