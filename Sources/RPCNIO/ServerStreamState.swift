import NIOCore
import RPCCore

/// One request stream on a server connection, owned by the connection's event loop.
///
/// Life: the request headers are read (by the connection's `headerBlock`); then the call is `started` (a handler owns the
/// other side of `inbound`, `gate` and `cancellation`) or answered at once. The response
/// goes: headers (`headersSent`), messages through `outbox`, and the status, sent as
/// trailers after the outbox drains or trailers-only if no headers went out.
///
/// Invariants: `statusQueued` becomes true once and then no handler part is accepted;
/// `unreleased` counts received DATA bytes not yet released to nghttp2's flow control,
/// and every one of them is released by the time the stream is forgotten.
final class ServerStreamState {
    let id: Int32
    @exclusivity(unchecked) var deframer: MessageDeframer
    @exclusivity(unchecked) var inbound: InboundQueue<[UInt8]>?
    @exclusivity(unchecked) var gate: OutboundGate?
    @exclusivity(unchecked) var cancellation: CancellationSlot?
    @exclusivity(unchecked) var call: ServerStream?
    @exclusivity(unchecked) var requestEnded = false
    /// Send RST_STREAM(NO_ERROR) after the status even if the client has half-closed
    /// (deadline expiry, as grpc-core does).
    @exclusivity(unchecked) var resetAfterStatus = false

    @exclusivity(unchecked) var headersSent = false
    @exclusivity(unchecked) var statusQueued = false
    /// The status came from the event loop (rejection, bad message, deadline), not the handler.
    @exclusivity(unchecked) var answeredByTransport = false
    @exclusivity(unchecked) var outbox = OutboundMessages()
    @exclusivity(unchecked) var pendingTrailers: (status: Status, metadata: Metadata)?
    @exclusivity(unchecked) var dataDeferred = false

    @exclusivity(unchecked) var unreleased = 0
    @exclusivity(unchecked) var deadlineTimer: Scheduled<Void>?

    init(id: Int32, maxMessageSize: Int) {
        self.id = id
        self.deframer = MessageDeframer(maxMessageSize: maxMessageSize)
    }

    var isActiveCall: Bool { inbound != nil && !statusQueued }

    /// The handler side is over: wake and cancel it with `error`.
    func abandonCall(_ error: RPCError) {
        inbound?.fail(error)
        gate?.close(error)
        cancellation?.cancel()
        deadlineTimer?.cancel()
        deadlineTimer = nil
    }
}
