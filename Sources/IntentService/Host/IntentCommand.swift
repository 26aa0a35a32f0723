public import EngineHost
public import GlimpseMessages
public import IntentEngine

/// An input of glimpse-intent, as journaled: a `glimpse.intent.v1.JournalRecord`.
public struct IntentCommand: HostCommand {
    public typealias Answer = IntentAnswer

    public var record: GlimpseIntentV1.JournalRecord

    public init(_ input: GlimpseIntentV1.JournalRecord.Input, appToken: String = "") {
        record = GlimpseIntentV1.JournalRecord()
        record.input = input
        record.appToken = appToken
    }

    init(record: GlimpseIntentV1.JournalRecord) { self.record = record }

    public func encode() throws -> [UInt8] { try record.serializedBytes() }

    public static func decode(_ bytes: [UInt8]) throws -> IntentCommand {
        IntentCommand(record: try GlimpseIntentV1.JournalRecord(serializedBytes: bytes))
    }
}

/// What a command answers its caller.
public enum IntentAnswer: Sendable, Hashable {
    case none
    case registered(token: String)
    /// A tap: its completion when it ended at once (refused, replayed, a declarative
    /// action); nil when it waits for a handler call (its own or the first tap's with its key).
    case tap(TapCompletion?)
    /// A store write: the group's sequence after it.
    case written(sequence: UInt64)
}
