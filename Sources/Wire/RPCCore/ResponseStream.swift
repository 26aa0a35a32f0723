/// The responses of a server- or bidirectional-streaming call on the client. Iterate it
/// once: it yields the messages and throws `RPCError` if the call ends with a status other
/// than OK. Initial metadata is read with `metadata()`; trailing metadata is there after the
/// iteration ended.
public final class ResponseStream<Message: Sendable>: AsyncSequence, @unchecked Sendable {
    // Unchecked: the state below is touched only by the one task that consumes the stream.
    public typealias Element = Message
    private let inbound: InboundQueue<RPCResponsePart>
    private let deserializer: any MessageDeserializer<Message>
    private var initialMetadata: Metadata?
    private var buffered: [UInt8]?
    public private(set) var trailingMetadata = Metadata()
    public private(set) var finalStatus: Status?

    init(inbound: InboundQueue<RPCResponsePart>, deserializer: any MessageDeserializer<Message>) {
        self.inbound = inbound
        self.deserializer = deserializer
    }

    /// The initial metadata (waits for the response headers; empty for trailers-only).
    public func metadata() async throws -> Metadata {
        if let initialMetadata { return initialMetadata }
        while initialMetadata == nil {
            guard let part = try await nextPart() else { break }
            switch part {
            case .metadata(let metadata): initialMetadata = metadata
            case .message(let bytes): buffered = bytes; initialMetadata = Metadata()
            case .status: initialMetadata = Metadata()
            }
        }
        return initialMetadata ?? Metadata()
    }

    public func nextMessage() async throws -> Message? {
        if let bytes = buffered {
            buffered = nil
            return try decode(bytes)
        }
        while let part = try await nextPart() {
            switch part {
            case .metadata(let metadata): initialMetadata = metadata
            case .message(let bytes): return try decode(bytes)
            case .status: return nil
            }
        }
        return nil
    }

    private func nextPart() async throws -> RPCResponsePart? {
        if finalStatus != nil { return nil }
        guard let part = try await inbound.next() else {
            throw RPCError(code: .internal, message: "The call ended without a status")
        }
        if case .status(let status, let trailers) = part {
            finalStatus = status
            trailingMetadata = trailers
            if initialMetadata == nil { initialMetadata = Metadata() }
            if status.code != .ok { throw RPCError(status: status, metadata: trailers) }
        }
        return part
    }

    private func decode(_ bytes: [UInt8]) throws -> Message {
        do {
            return try deserializer.deserialize(bytes)
        } catch {
            throw RPCError(code: .internal, message: "Failed to deserialize a response: \(error)")
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: ResponseStream
        public mutating func next() async throws -> Message? { try await stream.nextMessage() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: self) }
}
