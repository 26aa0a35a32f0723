#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The one shape every I/O-free engine has, so that one engine host can drive any of them.
///
/// - Calls into an engine return the effects the host must carry out (`[Effect]`, or an
///   answer together with its effects); nothing waits in the engine to be drained.
/// - `nextDeadline()` is the earliest instant at which the engine has work, nil when none.
///   It may be early (firing then does nothing) but never late.
/// - `fireDue()` does everything due at the engine's clock's `now`, in deadline order,
///   and returns its effects.
package protocol Engine: Sendable {
    associatedtype Effect: Sendable
    mutating func nextDeadline() -> Date?
    mutating func fireDue() -> [Effect]
}

/// A call's answer together with the effects the host must carry out.
package struct Step<Answer, Effect> {
    package var answer: Answer
    package var effects: [Effect]
    package init(_ answer: Answer, effects: [Effect] = []) {
        self.answer = answer
        self.effects = effects
    }
}

extension Step: Sendable where Answer: Sendable, Effect: Sendable {}
extension Step: Equatable where Answer: Equatable, Effect: Equatable {}
