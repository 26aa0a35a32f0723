package import GlimpseMessages
package import ServiceKit
package import IntentEngine

/// An input of glimpse-intent, as journaled: a `glimpse.intent.v1.JournalRecord`.
package typealias IntentCommand = JournalCommand<GlimpseIntentV1.JournalRecord, IntentAnswer>

extension GlimpseIntentV1.JournalRecord: JournalRecordMessage {}

/// What a command answers its caller.
package enum IntentAnswer: Sendable, Hashable {
    case none
    case registered(token: String)
    /// A tap: its completion when it ended at once (refused, replayed, a declarative
    /// action); nil when it waits for a handler call (its own or the first tap's with its key).
    case tap(TapCompletion?)
    /// A store write: the group's sequence after it.
    case written(sequence: UInt64)
}
