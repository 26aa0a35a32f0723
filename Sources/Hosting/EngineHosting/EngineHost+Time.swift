#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseVocabulary

extension EngineHost {
    /// Manual mode: fires, in deadline order, everything due up to `target` (including work
    /// the fired work schedules inside the interval), journaling each firing before its
    /// effects are performed; returns when all of it is done, with the clock at `target`.
    package func advance(to target: Date) async throws {
        guard clock.isManual else { throw EngineHostError.notManual }
        try checkOpen()
        let start = clock.now
        guard target >= start else { throw EngineHostError.wouldGoBackwards(now: start, requested: target) }
        var previous: Date?
        var sameInstant = 0
        while let deadline = engine.nextDeadline(), deadline <= target {
            try checkOpen()
            let at = max(deadline, clock.now)
            sameInstant = at == previous ? sameInstant + 1 : 0
            guard sameInstant < Self.sameInstantLimit else {
                throw EngineHostError.noProgress(at: at, firings: sameInstant)
            }
            previous = at
            clock.setManual(at)
            let effects = try fire(at: at)
            await perform(self, effects)
        }
        clock.setManual(target)
    }

    /// System mode: the timer. Sleeps until the engine's next deadline (woken early by every
    /// input, which may move it), fires what is due, and again, until the task is cancelled
    /// or the host closed. Services run it in their service group; in manual mode it only
    /// waits for cancellation or close (`advance(to:)` drives time instead).
    package func run() async throws {
        var stuck = 0
        while !Task.isCancelled, !closed {
            try checkOpen()
            guard !clock.isManual else {
                await wakeup.wait(timeout: nil)
                continue
            }
            let now = clock.now
            guard let deadline = engine.nextDeadline(), deadline <= now else {
                stuck = 0
                // Wall-clock steps make a long sleep drift: look again at least every minute.
                let delay = engine.nextDeadline().map { min($0.timeIntervalSince(now), 60) }
                await wakeup.wait(timeout: delay.map { .seconds($0) })
                continue
            }
            let effects = try fire(at: now)
            if let again = engine.nextDeadline(), again <= now {
                stuck += 1
                guard stuck < Self.sameInstantLimit else {
                    throw EngineHostError.noProgress(at: now, firings: stuck)
                }
            } else {
                stuck = 0
            }
            await perform(self, effects)
        }
    }
}
