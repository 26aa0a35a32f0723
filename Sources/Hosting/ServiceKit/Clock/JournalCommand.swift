public import EngineHost
public import GlimpseMessages

/// A service's journal record: a generated message whose `input` oneof holds the input and
/// whose `app_token` holds the token an install issued (empty otherwise).
public protocol JournalRecordMessage: GlimpseMessage {
    associatedtype Input: Sendable
    var input: Input? { get set }
    var appToken: String { get set }
}

/// An input of a service whose journal is one protobuf record per input: the record's bytes
/// are what the journal keeps, and replay decodes them again.
public struct JournalCommand<Record: JournalRecordMessage, Answer: Sendable>: HostCommand {
    public var record: Record

    public init(_ input: Record.Input, appToken: String = "") {
        record = Record()
        record.input = input
        record.appToken = appToken
    }

    public init(record: Record) { self.record = record }

    public func encode() throws -> [UInt8] { try record.serializedBytes() }

    public static func decode(_ bytes: [UInt8]) throws -> Self {
        Self(record: try Record(serializedBytes: bytes))
    }
}
