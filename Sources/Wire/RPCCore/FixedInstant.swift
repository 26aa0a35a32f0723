/// A `ContinuousClock.Instant` in a form of fixed size: its distance from a reference
/// instant taken once per process.
///
/// `ContinuousClock.Instant` is a resilient type of the standard library (it is not
/// frozen), so a struct or class that stores one has no layout known at compile time:
/// every copy and destruction of such a struct goes through runtime metadata and value
/// witnesses, and every field of such a class that comes after it is reached through an
/// offset read at run time. `Duration` is frozen. The call path (`ServerStream`,
/// `ServerContext`) stores deadlines in this form and makes an instant only when asked.
package struct FixedInstant: Sendable, Hashable, Comparable {
    private static let reference = ContinuousClock.now

    package var sinceReference: Duration

    package init(_ instant: ContinuousClock.Instant) {
        sinceReference = Self.reference.duration(to: instant)
    }

    /// `timeout` from now.
    package static func after(_ timeout: Duration) -> FixedInstant {
        FixedInstant(ContinuousClock.now.advanced(by: timeout))
    }

    package var instant: ContinuousClock.Instant {
        Self.reference.advanced(by: sinceReference)
    }

    package static func < (lhs: FixedInstant, rhs: FixedInstant) -> Bool {
        lhs.sinceReference < rhs.sinceReference
    }
}
