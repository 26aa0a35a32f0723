/// Turns a message into the bytes of one gRPC message (without the 5-byte prefix).
/// This is the seam with the message layer: RPCCore never sees a generated type.
public protocol MessageSerializer<Message>: Sendable {
    associatedtype Message
    func serialize(_ message: Message) throws -> [UInt8]
}

/// Parses the bytes of one gRPC message. A throw becomes INTERNAL on the client (the
/// server sent something we cannot read) and INTERNAL on the server, as grpc-core does
/// for a request that does not parse (see `ServerCallFailure`), unless the error is a
/// `RPCStatusConvertible`, which names the status the server answers with.
public protocol MessageDeserializer<Message>: Sendable {
    associatedtype Message
    func deserialize(_ bytes: [UInt8]) throws -> Message
}

/// An error a deserializer throws for a request whose *content* is wrong (e.g. JSON
/// naming a field the message does not have), as opposed to bytes it cannot read at all:
/// the server ends the call with `rpcStatus` (typically INVALID_ARGUMENT with the
/// error's description) instead of INTERNAL. The message layer's errors adopt it where
/// the two layers meet (GlimpseRPC), so RPCCore needs no message types. On the client a
/// response that does not deserialize is INTERNAL whatever the error.
public protocol RPCStatusConvertible: Error {
    var rpcStatus: Status { get }
}

/// Raw bytes in, raw bytes out: for generic proxies, tests and benchmarks.
public struct RawBytesCoder: MessageSerializer, MessageDeserializer {
    public init() {}
    @inlinable public func serialize(_ message: [UInt8]) throws -> [UInt8] { message }
    @inlinable public func deserialize(_ bytes: [UInt8]) throws -> [UInt8] { bytes }
}
