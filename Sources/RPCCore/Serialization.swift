/// Turns a message into the bytes of one gRPC message (without the 5-byte prefix).
/// This is the seam with the message layer: RPCCore never sees a generated type.
public protocol MessageSerializer<Message>: Sendable {
    associatedtype Message
    func serialize(_ message: Message) throws -> [UInt8]
}

/// Parses the bytes of one gRPC message. A throw becomes INTERNAL on the client (the
/// server sent something we cannot read) and INTERNAL on the server, as grpc-core does
/// for a request that does not parse (see `ServerCallFailure.undecodableRequest`).
public protocol MessageDeserializer<Message>: Sendable {
    associatedtype Message
    func deserialize(_ bytes: [UInt8]) throws -> Message
}

/// Raw bytes in, raw bytes out: for generic proxies, tests and benchmarks.
public struct RawBytesCoder: MessageSerializer, MessageDeserializer {
    public init() {}
    @inlinable public func serialize(_ message: [UInt8]) throws -> [UInt8] { message }
    @inlinable public func deserialize(_ bytes: [UInt8]) throws -> [UInt8] { bytes }
}
