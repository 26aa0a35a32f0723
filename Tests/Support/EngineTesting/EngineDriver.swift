#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary

extension Engine {
    /// Moves `clock` to `target`, stopping at each of the engine's deadlines on the way so
    /// that everything due happens in time order; returns every effect, in order. Throws
    /// `VirtualClock.AdvanceError.noProgress` if the engine keeps work due at one instant
    /// (a loop) instead of hanging the test.
    ///
    /// `perform` sees each batch of effects as it happens (a test's stand-in for the host:
    /// answering provider calls, say) and may call back into the engine.
    @discardableResult
    package mutating func advance(
        _ clock: VirtualClock, to target: Date,
        perform: (inout Self, [Effect]) throws -> Void = { _, _ in }
    ) throws -> [Effect] {
        var all: [Effect] = []
        try clock.advance(
            to: target,
            nextDeadline: { self.nextDeadline() },
            fire: { _ in
                let effects = self.fireDue()
                all += effects
                try perform(&self, effects)
            })
        let effects = fireDue()
        all += effects
        try perform(&self, effects)
        return all
    }

    /// `advance(_:to:)` by an interval in seconds.
    @discardableResult
    package mutating func advance(
        _ clock: VirtualClock, by interval: TimeInterval,
        perform: (inout Self, [Effect]) throws -> Void = { _, _ in }
    ) throws -> [Effect] {
        try advance(clock, to: clock.now.addingTimeInterval(interval), perform: perform)
    }
}
