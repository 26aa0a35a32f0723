package import GlimpseJSON
import GlimpseMessages
package import RPCCore

/// A method a contract may call, with the message types it takes and gives: the bridge
/// between a contract's proto3 JSON and the protobuf bytes on the wire. Calls, stubs and
/// proxies move bytes (`RawBytesCoder`); only the codecs know the generated types.
package struct ContractMethod: Sendable {
    package enum Kind: Sendable, Hashable {
        case unary, serverStreaming, clientStreaming
    }

    package let descriptor: MethodDescriptor
    package let kind: Kind
    package let request: MessageCodec
    package let response: MessageCodec

    /// `glimpse.timeline.v1.TimelineService/GetPlacement`.
    package var name: String { "\(descriptor.service)/\(descriptor.method)" }

    static func unary<Request: ProtoJSONMessage, Response: ProtoJSONMessage>(
        _ descriptor: MethodDescriptor, _: Request.Type, _: Response.Type
    ) -> ContractMethod {
        ContractMethod(descriptor: descriptor, kind: .unary, request: .of(Request.self), response: .of(Response.self))
    }

    static func serverStreaming<Request: ProtoJSONMessage, Response: ProtoJSONMessage>(
        _ descriptor: MethodDescriptor, _: Request.Type, _: Response.Type
    ) -> ContractMethod {
        ContractMethod(
            descriptor: descriptor, kind: .serverStreaming, request: .of(Request.self), response: .of(Response.self))
    }

    static func clientStreaming<Request: ProtoJSONMessage, Response: ProtoJSONMessage>(
        _ descriptor: MethodDescriptor, _: Request.Type, _: Response.Type
    ) -> ContractMethod {
        ContractMethod(
            descriptor: descriptor, kind: .clientStreaming, request: .of(Request.self), response: .of(Response.self))
    }
}

/// One message type: protobuf bytes to proto3 JSON and back.
package struct MessageCodec: Sendable {
    /// The full protobuf name (`glimpse.timeline.v1.PlacementStatus`).
    package let name: String
    /// Decodes the wire bytes and writes the canonical JSON.
    package let json: @Sendable ([UInt8]) throws -> JSONValue
    /// Reads JSON (unknown fields refused) and encodes the wire bytes.
    package let bytes: @Sendable (JSONValue) throws -> [UInt8]

    static func of<Message: ProtoJSONMessage>(_: Message.Type) -> MessageCodec {
        MessageCodec(
            name: Message.protoMessageName,
            json: { bytes in try Message(serializedBytes: bytes).protoJSONValue() },
            bytes: { value in
                try Message(protoJSONValue: value, path: "", ignoringUnknownFields: false).serializedBytes()
            })
    }
}
