/// Per-call settings on the client.
public struct CallOptions: Sendable {
    /// Sent as `grpc-timeout`; the call fails with DEADLINE_EXCEEDED when it passes.
    public var timeout: Duration?
    /// Whether the call is part of the server call the task is handling and goes out with
    /// no more than what is left of its deadline (`CallDeadline`); off for calls the service
    /// makes on its own account (an app's provider or intent handler).
    public var inheritsDeadline: Bool

    public init(timeout: Duration? = nil, inheritsDeadline: Bool = true) {
        self.timeout = timeout
        self.inheritsDeadline = inheritsDeadline
    }

    public static var defaults: Self { Self() }
}

/// A request with one message, as a client sends it.
public struct ClientRequest<Message: Sendable>: Sendable {
    public var message: Message
    public var metadata: Metadata

    public init(message: Message, metadata: Metadata = Metadata()) {
        self.message = message
        self.metadata = metadata
    }
}

/// A response with one message, as a client receives it.
public struct ClientResponse<Message: Sendable>: Sendable {
    public var message: Message
    public var metadata: Metadata
    public var trailingMetadata: Metadata
}
