public import EngineHost
public import GlimpseMessages

/// An input of glimpse-timeline, as journaled: a `glimpse.timeline.v1.JournalRecord`.
public struct TimelineCommand: HostCommand {
    public typealias Answer = TimelineAnswer

    public var record: GlimpseTimelineV1.JournalRecord

    public init(_ input: GlimpseTimelineV1.JournalRecord.Input, appToken: String = "") {
        record = GlimpseTimelineV1.JournalRecord()
        record.input = input
        record.appToken = appToken
    }

    init(record: GlimpseTimelineV1.JournalRecord) { self.record = record }

    public func encode() throws -> [UInt8] { try record.serializedBytes() }

    public static func decode(_ bytes: [UInt8]) throws -> TimelineCommand {
        TimelineCommand(record: try GlimpseTimelineV1.JournalRecord(serializedBytes: bytes))
    }
}

/// What a command answers its caller.
public enum TimelineAnswer: Sendable, Hashable {
    case none
    case installed(token: String)
    case placed(UInt64)
    case removed([UInt64])
}
