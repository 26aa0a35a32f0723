import EngineHosting
package import GlimpseMessages

/// A service's journal record: a generated message whose `input` oneof holds the input and
/// whose `app_token` holds the token an install issued (empty otherwise).
package protocol JournalRecordMessage: GlimpseMessage {
    associatedtype Input: Sendable
    var input: Input? { get set }
    var appToken: String { get set }
}

/// An input of a service whose journal is one protobuf record per input: the record's bytes
/// are what the journal keeps, and replay decodes them again.
package struct JournalCommand<Record: JournalRecordMessage, Answer: Sendable>: HostCommand {
    package var record: Record

    package init(_ input: Record.Input, appToken: String = "") {
        record = Record()
        record.input = input
        record.appToken = appToken
    }

    package init(record: Record) { self.record = record }

    package func encode() throws -> [UInt8] { try record.serializedBytes() }

    package static func decode(_ bytes: [UInt8]) throws -> Self {
        Self(record: try Record(serializedBytes: bytes))
    }
}
