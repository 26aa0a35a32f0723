public import GlimpseMessages

/// A generated message inside a service's snapshot: its protobuf bytes, which decode to an
/// equal message (the services keep manifests, errors and push records this way).
public struct SnapshotMessage<Message: GlimpseMessage>: Codable, Sendable {
    public var message: Message

    public init(_ message: Message) {
        self.message = message
    }

    public init(from decoder: any Decoder) throws {
        message = try Message(serializedBytes: try decoder.singleValueContainer().decode([UInt8].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try message.serializedBytes())
    }
}
