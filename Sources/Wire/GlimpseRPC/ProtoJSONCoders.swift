public import GlimpseMessages
public import RPCCore

/// A generated message as proto3 canonical JSON text (UTF-8, compact): the coders of a
/// method served as JSON over HTTP.
public struct ProtoJSONSerializer<Message: ProtoJSONMessage>: MessageSerializer {
    public init() {}

    public func serialize(_ message: Message) throws -> [UInt8] {
        message.jsonBytes()
    }
}

/// Parses proto3 JSON text as a generated message (an empty body is the empty message).
/// Unknown fields are refused unless `ignoringUnknownFields`. Bad input throws
/// `ProtoJSONError`, which the server answers with INVALID_ARGUMENT and the error's
/// description (the field's path and what is wrong with it).
public struct ProtoJSONDeserializer<Message: ProtoJSONMessage>: MessageDeserializer {
    public let ignoringUnknownFields: Bool

    public init(ignoringUnknownFields: Bool = false) {
        self.ignoringUnknownFields = ignoringUnknownFields
    }

    public func deserialize(_ bytes: [UInt8]) throws -> Message {
        try Message(jsonBytes: bytes, ignoringUnknownFields: ignoringUnknownFields)
    }
}

/// JSON that does not read as the request message is the client's fault: INVALID_ARGUMENT.
extension ProtoJSONError: RPCStatusConvertible {
    public var rpcStatus: Status { Status(code: .invalidArgument, message: description) }
}
