#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary

/// External handlers: their answers, their timeouts, and the clock that drives the latter.
extension IntentExecutor {
    /// What an app's handler answered.
    package enum HandlerOutcome: Sendable, Hashable {
        case succeeded(TypedValue?)
        case failed(message: String)
    }

    /// The app's handler answered call `id`. Success or failure, a tapped placement is
    /// reloaded once (a failed toggle must show its true state again), and so is what
    /// `perform()` asked `WidgetCenter` for (`asked`), as part of the tap; then the target's
    /// next waiting tap runs. An answer to a call that timed out is ignored.
    package mutating func handlerFinished(
        _ id: CallID, _ outcome: HandlerOutcome, asked: IntentReloads = .tappedWidget
    ) -> [IntentEffect] {
        var effects: [IntentEffect] = []
        if let call = calls.removeValue(forKey: id) {
            let result: TapResult =
                switch outcome {
                case .succeeded(let value): .performed(value)
                case .failed(let message): .failed(.handler(message: message))
                }
            complete(call, result: result, asked: asked, effects: &effects)
        }
        finish(&effects)
        return effects
    }

    /// The earliest handler timeout or idempotency-record expiry, or nil.
    package mutating func nextDeadline() -> Date? {
        let next = earliestDeadline()
        return next.isFinite ? Date(timeIntervalSinceReferenceDate: next) : nil
    }

    mutating func earliestDeadline() -> Double {
        dropAnsweredDeadlines()
        return min(deadlines.first?.at ?? .infinity, ledger.nextExpiry)
    }

    /// Times out every handler call due by now, in deadline order; also forgets expired
    /// idempotency records.
    package mutating func fireDue() -> [IntentEffect] {
        let t = now
        ledger.expire(at: t)
        var effects: [IntentEffect] = []
        while dropAnsweredDeadlines(), let first = deadlines.first, first.at <= t {
            deadlines.removeFirst()
            guard let call = calls.removeValue(forKey: first.call) else { continue }
            effects.append(.cancelHandlerCall(first.call))
            complete(call, result: .failed(.handlerTimedOut), effects: &effects)
        }
        finish(&effects)
        return effects
    }

    mutating func complete(
        _ call: Call, result: TapResult, asked: IntentReloads = .tappedWidget, effects: inout [IntentEffect]
    ) {
        let target = call.job.tap.target
        busy[target] = nil
        let reloaded = appendReloads(of: call.job, result: result, asked: asked, effects: &effects)
        finish(key: call.job.key, tap: call.job.tap, result: result, reloaded: reloaded, effects: &effects)
        runWaiting(on: target, effects: &effects)
    }

    /// Drops deadlines of calls already answered; true (for use in a `while` condition).
    @discardableResult
    mutating func dropAnsweredDeadlines() -> Bool {
        while let first = deadlines.first, calls[first.call] == nil { deadlines.removeFirst() }
        return true
    }

    /// Ends a call's effects with `.nextWakeUp` when the earliest deadline moved.
    mutating func finish(_ effects: inout [IntentEffect]) {
        let next = earliestDeadline()
        guard next != announcedWake else { return }
        announcedWake = next
        effects.append(.nextWakeUp(next.isFinite ? Date(timeIntervalSinceReferenceDate: next) : nil))
    }
}
