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

/// A request whose bytes are protobuf but whose text Glimpse refuses (not UTF-8, or
/// holding U+0000) is the client's fault: INVALID_ARGUMENT naming the field by its path
/// (`entries[0].key`). Bytes that are not protobuf at all stay INTERNAL, as grpc-core
/// answers them (see `ServerCallFailure`).
extension ProtoDecodingError: RPCStatusConvertible {
    public var rpcStatus: Status {
        switch self {
        case .stringContainsNUL(let message, let field):
            Status(code: .invalidArgument, message: "\(field): text holding U+0000 (NUL) is refused (\(message))")
        case .invalidUTF8(let message, let field):
            Status(code: .invalidArgument, message: "\(field): text that is not UTF-8 is refused (\(message))")
        case .malformed, .tooDeep:
            Status(code: .internal, message: "Failed to deserialize the request: \(self)")
        }
    }
}
