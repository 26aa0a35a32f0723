#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Synchronization

/// The one time source of Glimpse. Every time rule (reload policies, budgets, stale
/// dates, the 8 h limit, dismissal) reads `now` from a `WallClock`, never `Date()`,
/// so that tests and scripted runs can move time by hand with a `VirtualClock`.
///
/// Contract: `now` never goes backwards. The engines keep deadlines in FIFOs ordered by
/// the instant they were made at (provider timeouts, handler timeouts, idempotency
/// records), which is deadline order only on a clock that does not go back.
package protocol WallClock: Sendable {
    /// The current wall-clock instant.
    var now: Date { get }
}

/// Real time, as the operating system tells it, made monotonic: when the system clock
/// steps back (NTP, an administrator), `now` holds at the latest instant it reported
/// until the system clock passes it again. Forward steps are followed.
package final class SystemClock: WallClock {
    private let source: @Sendable () -> Date
    private let latest: Mutex<Date>

    package convenience init() { self.init(source: { Date() }) }

    /// A clock over another time source (tests use one that steps back).
    package init(source: @escaping @Sendable () -> Date) {
        self.source = source
        latest = Mutex(.distantPast)
    }

    package var now: Date {
        let reading = source()
        return latest.withLock { latest in
            if reading > latest { latest = reading }
            return latest
        }
    }
}
