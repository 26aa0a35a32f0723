import NIOCore
import RPCCore

/// Commands from server calls to their connection's event loop.
enum ServerCommand: Sendable {
    case part(stream: Int32, RPCResponsePart)
    /// A message written by `write`: its room in the connection's outbound budget is taken.
    case written(stream: Int32, message: [UInt8], room: Int)
    /// A call took request bytes (see `ServerStream.requestBytesTaken`): `owed` go back to
    /// the stream's window, `taken` leave the receive budget.
    case taken(stream: Int32, owed: Int, taken: Int, waiting: Bool)
    /// A unary-style response in one command: metadata, message, OK with trailers.
    case single(stream: Int32, metadata: Metadata, message: [UInt8], trailers: Metadata)
}

/// One request stream on a server connection: the call its handler sees (the
/// `ServerStream` it is) and the connection's own bookkeeping for it, in one object.
///
/// Life: made when the request's header block is complete; then the call is `started`
/// (pushed to the transport's handlers) or answered at once. The response goes: headers
/// (`headersSent`), messages through `outbox`, and the status, sent as trailers after the
/// outbox drains or trailers-only if no headers went out.
///
/// Invariants:
/// - The `@exclusivity(unchecked)` fields belong to the connection's event loop and are
///   touched only there; the handler's thread uses only `ServerStream`'s locked state and
///   the sending methods below, which touch only `id` and `mailbox` (immutable) — so the
///   unchecked Sendable conformance holds.
/// - `statusQueued` becomes true once and then no handler part is accepted.
/// - `unreleased` counts received DATA bytes not yet released to the stream's window;
///   every one of them is released by the time the stream is forgotten.
/// - Receive budget (see `HTTP2Config.receiveBudget`): of the bytes of an active call's
///   DATA, those the connection window has not had back are `queuedHeld` (in messages
///   queued for the handler, until it reports them taken) or `partialHeld` (in the
///   message still arriving); `partialHeld + lent` is the deframer's partial message, and
///   `lent` (credited early, while the handler waited for it) is only ever non-zero for
///   that message. All of it goes back when the stream is forgotten.
///
/// An HTTP/JSON call (`isJSON`: a request that is not gRPC on a JSON route) takes its whole
/// body as its one request (`jsonBody`, pushed at the end of the stream) and answers with
/// plain HTTP: the status from the call's outcome, the JSON bytes unframed (`outbox`), the
/// end of the stream after them instead of trailers.
final class ServerStreamState: ServerStream, CreditedStream, @unchecked Sendable {
    let id: Int32
    let mailbox: Mailbox<ServerCommand>
    let isJSON: Bool
    @exclusivity(unchecked) var deframer: MessageDeframer
    /// JSON: the request body so far (`partialHeld + lent` of it count as for a message).
    @exclusivity(unchecked) var jsonBody: [UInt8] = []
    /// JSON: initial metadata, held until the response's headers go out.
    @exclusivity(unchecked) var jsonMetadata = Metadata()
    @exclusivity(unchecked) var started = false
    @exclusivity(unchecked) var requestEnded = false
    /// Send RST_STREAM(NO_ERROR) after the status even if the client has half-closed
    /// (deadline expiry, as grpc-core does).
    @exclusivity(unchecked) var resetAfterStatus = false

    @exclusivity(unchecked) var headersSent = false
    @exclusivity(unchecked) var statusQueued = false
    /// The status came from the event loop (rejection, bad message, deadline), not the handler.
    @exclusivity(unchecked) var answeredByTransport = false
    @exclusivity(unchecked) var outbox: OutboundMessages
    @exclusivity(unchecked) var pendingTrailers: (status: Status, metadata: Metadata)?
    @exclusivity(unchecked) var dataDeferred = false
    /// A header block of this stream could not be sent and the status went out alone instead.
    @exclusivity(unchecked) var sentFallbackStatus = false

    @exclusivity(unchecked) var unreleased = 0
    @exclusivity(unchecked) var queuedHeld = 0
    @exclusivity(unchecked) var partialHeld = 0
    @exclusivity(unchecked) var lent = 0
    @exclusivity(unchecked) var deadlineTimer: Scheduled<Void>?

    init(
        id: Int32, head: RequestHead, remotePeer: String,
        config: NIOServerConfig, mailbox: Mailbox<ServerCommand>, outboundBudget: OutboundBudget
    ) {
        self.id = id
        self.mailbox = mailbox
        self.isJSON = head.format == .json
        self.outbox = OutboundMessages(framed: head.format != .json)
        self.deframer = MessageDeframer(maxMessageSize: config.maxReceiveMessageSize)
        super.init(
            head: head, remotePeer: remotePeer,
            eagerAllowance: config.http2.eagerReleaseAllowance,
            highWatermark: config.http2.outboundHighWatermark, lowWatermark: config.http2.outboundLowWatermark,
            takenReportThreshold: Self.takenReportThreshold, outboundBudget: outboundBudget)
    }

    /// What `bytes` of a message take in the outbox: the gRPC prefix, or a JSON line's newline.
    func queuedSize(ofMessage bytes: Int) -> Int { bytes + (isJSON ? 1 : MessagePrefix.size) }

    /// Taken request bytes a handler that never waits reports at the latest: what the
    /// connection may count as held after the handler took it, per stream.
    static let takenReportThreshold = 16 * 1024

    /// This call's request bytes that count against the receive budget.
    var held: Int { queuedHeld + partialHeld }

    var isActiveCall: Bool { started && !statusQueued }

    /// The handler side is over: wake and cancel it with `error`.
    func abandonCall(_ error: RPCError) {
        if started { abandon(error) }
        deadlineTimer?.cancel()
        deadlineTimer = nil
    }

    // MARK: Sending, from the handler's task: through the mailbox

    override func write(_ part: RPCResponsePart, flush: Bool) async throws {
        if case .message(let bytes) = part {
            if let abandoned = abandonment { throw abandoned }  // the stream is gone
            let size = queuedSize(ofMessage: bytes.count)
            // Room in the connection's budget first: a client that reads nothing makes the
            // writer wait here, before its message is queued.
            try await takeRoom(forMessageOf: size)
            mailbox.send(.written(stream: id, message: bytes, room: size), flush: flush)
            // Counted until nghttp2 frames them (`releaseOutbound` in the data callback).
            try await reserveOutbound(size) { mailbox.flush() }
        } else {
            mailbox.send(.part(stream: id, part), flush: flush)
        }
    }

    override func send(_ part: RPCResponsePart, flush: Bool) {
        mailbox.send(.part(stream: id, part), flush: flush)
    }

    override func sendSingleResponse(metadata: Metadata, message: [UInt8], trailers: Metadata) {
        mailbox.send(.single(stream: id, metadata: metadata, message: message, trailers: trailers))
    }

    /// Gives back flow-control credit for request bytes the call took.
    override func requestBytesTaken(owed: Int, taken: Int, waiting: Bool) {
        mailbox.send(.taken(stream: id, owed: owed, taken: taken, waiting: waiting))
    }
}
