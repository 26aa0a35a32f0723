public import GlimpseMessages
public import RPCCore

/// The seam between the gRPC layer and the message layer: a generated message goes on
/// the wire through protobuf-c.
public struct ProtoSerializer<Message: GlimpseMessage>: MessageSerializer {
    public init() {}

    @inlinable
    public func serialize(_ message: Message) throws -> [UInt8] {
        try message.serializedBytes()
    }
}

/// Parses one gRPC message as a generated message; malformed bytes throw
/// `ProtoDecodingError`, which the RPC layer turns into a status.
public struct ProtoDeserializer<Message: GlimpseMessage>: MessageDeserializer {
    public init() {}

    @inlinable
    public func deserialize(_ bytes: [UInt8]) throws -> Message {
        try Message(serializedBytes: bytes)
    }
}
