public import EngineHost
public import GlimpseMessages

/// An input of glimpse-activity, as journaled: a `glimpse.activity.v1.JournalRecord`.
public struct ActivityCommand: HostCommand {
    public typealias Answer = ActivityAnswer

    public var record: GlimpseActivityV1.JournalRecord

    public init(_ input: GlimpseActivityV1.JournalRecord.Input, appToken: String = "") {
        record = GlimpseActivityV1.JournalRecord()
        record.input = input
        record.appToken = appToken
    }

    init(record: GlimpseActivityV1.JournalRecord) { self.record = record }

    public func encode() throws -> [UInt8] { try record.serializedBytes() }

    public static func decode(_ bytes: [UInt8]) throws -> ActivityCommand {
        ActivityCommand(record: try GlimpseActivityV1.JournalRecord(serializedBytes: bytes))
    }
}

/// What a command answers its caller.
public enum ActivityAnswer: Sendable, Hashable {
    case none
    case installed(token: String)
    case removed([String])
    case activity(GlimpseActivityV1.Activity)
    case change(GlimpseActivityV1.ChangeResponse)
    case token(String)
    case authorization(GlimpseActivityV1.AuthorizationInfo)
    /// A push: what the endpoint answers, as logged; `goaway` when a fault asked for one.
    case push(GlimpseActivityV1.PushRecord, headers: [String: String], body: [UInt8], goaway: Bool)
    case fault(UInt64)
    case cleared(UInt32)
}
