/// What travels from a server to a client on one call, in order: initial metadata (at most
/// once, optional), messages, then exactly one status with trailing metadata.
public enum RPCResponsePart: Sendable, Hashable {
    case metadata(Metadata)
    case message([UInt8])
    case status(Status, Metadata)
}

/// A server transport accepts connections and turns each incoming call into a
/// `ServerStream`. It owns the structured concurrency its calls run in.
public protocol ServerTransport: Sendable {
    /// Accepts calls until shut down, running `handler` once per call in a task of its own
    /// (a child task, or one the transport tracks). Returns after every handler has
    /// returned. Cancelling it cancels every call in flight.
    func listen(_ handler: @escaping @Sendable (ServerStream) async -> Void) async throws

    /// Stops accepting connections and calls; calls in flight finish (HTTP/2: GOAWAY).
    func beginGracefulShutdown()
}

/// What a client says when it opens a call.
public struct ClientRequestHead: Sendable {
    public var method: MethodDescriptor
    public var metadata: Metadata
    public var timeout: Duration?

    public init(method: MethodDescriptor, metadata: Metadata = Metadata(), timeout: Duration? = nil) {
        self.method = method
        self.metadata = metadata
        self.timeout = timeout
    }
}

/// A client transport opens calls on connections it manages (reconnecting as needed).
public protocol ClientTransport: Sendable {
    /// Opens a call. The request headers go out with the first write, flush or finish.
    /// Throws UNAVAILABLE when no connection can be had.
    func openStream(_ head: ClientRequestHead) async throws -> ClientStream

    /// Keeps the transport's connections until shut down; returns once they are closed.
    func run() async throws

    /// No new calls; calls in flight finish, then connections close.
    func beginGracefulShutdown()
}

/// One outgoing call as a transport hands it to the client runtime.
///
/// The transport guarantees: `inbound` ends with exactly one `.status` part (a failure of
/// the connection, a reset or an expired deadline becomes that status), then finishes.
public struct ClientStream: Sendable {
    public var inbound: InboundQueue<RPCResponsePart>
    public var outbound: any ClientStreamOutbound

    public init(inbound: InboundQueue<RPCResponsePart>, outbound: any ClientStreamOutbound) {
        self.inbound = inbound
        self.outbound = outbound
    }
}

/// The sending half of a client call.
public protocol ClientStreamOutbound: Sendable {
    /// Queues one request message, and with `endStream` the end of the requests. Waits
    /// while too much is queued; throws once the call is over.
    func write(_ message: [UInt8], endStream: Bool) async throws
    /// Sends the request headers now, for calls that start by listening.
    func flush()
    /// The end of the requests (half-close).
    func finish()
    /// Abandons the call (RST_STREAM CANCEL); the inbound side ends with CANCELLED.
    func cancel()
    /// True once the call is over (a status arrived, or it was cancelled): writes fail.
    var isClosed: Bool { get }
}
