/// What a handler knows about its call besides the messages.
public struct ServerContext: Sendable {
    public var method: MethodDescriptor
    /// Custom metadata the client sent.
    public var requestMetadata: Metadata
    /// Kept in a form of fixed size, so that the context has a layout known at compile time
    /// (see `FixedInstant`).
    private var fixedDeadline: FixedInstant?
    /// The client's address as the transport knows it (e.g. `ipv4:127.0.0.1:51234`).
    public var remotePeer: String

    public init(
        method: MethodDescriptor, requestMetadata: Metadata, deadline: ContinuousClock.Instant?, remotePeer: String
    ) {
        self.init(
            method: method, requestMetadata: requestMetadata, fixedDeadline: deadline.map(FixedInstant.init),
            remotePeer: remotePeer)
    }

    package init(method: MethodDescriptor, requestMetadata: Metadata, fixedDeadline: FixedInstant?, remotePeer: String)
    {
        self.method = method
        self.requestMetadata = requestMetadata
        self.fixedDeadline = fixedDeadline
        self.remotePeer = remotePeer
    }

    /// When the client stops waiting, if it said (`grpc-timeout`). The transport answers
    /// DEADLINE_EXCEEDED and cancels the handler's task at that point.
    public var deadline: ContinuousClock.Instant? {
        get { fixedDeadline?.instant }
        set { fixedDeadline = newValue.map(FixedInstant.init) }
    }
}

/// A request with one message.
public struct ServerRequest<Message: Sendable>: Sendable {
    public var metadata: Metadata
    public var message: Message

    @inlinable
    init(metadata: Metadata, message: Message) {
        self.metadata = metadata
        self.message = message
    }
}

/// A response with one message, and the metadata that goes before and after it.
public struct ServerResponse<Message: Sendable>: Sendable {
    public var message: Message
    public var metadata: Metadata
    public var trailingMetadata: Metadata

    @inlinable
    public init(message: Message, metadata: Metadata = Metadata(), trailingMetadata: Metadata = Metadata()) {
        self.message = message
        self.metadata = metadata
        self.trailingMetadata = trailingMetadata
    }
}

/// The request messages of a client- or bidirectional-streaming call, with the metadata
/// that came before them. Iterate it once; it throws if the client's stream fails.
public struct RequestStream<Message: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Message
    public let metadata: Metadata
    let stream: ServerStream
    let deserializer: any MessageDeserializer<Message>

    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: ServerStream
        let deserializer: any MessageDeserializer<Message>

        public mutating func next() async throws -> Message? {
            guard let bytes = try await stream.nextRequest() else { return nil }
            return try ServerCallFailure.decode(bytes, with: deserializer)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: stream, deserializer: deserializer)
    }
}
