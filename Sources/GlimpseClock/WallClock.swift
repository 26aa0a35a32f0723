#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one time source of Glimpse. Every time rule (reload policies, budgets, stale
/// dates, the 8 h limit, dismissal) reads `now` from a `WallClock`, never `Date()`,
/// so that tests and scripted runs can move time by hand with a `VirtualClock`.
public protocol WallClock: Sendable {
    /// The current wall-clock instant.
    var now: Date { get }
}

/// Real time, as the operating system tells it.
public struct SystemClock: WallClock {
    public init() {}
    public var now: Date { Date() }
}
