import CNghttp2
import NIOCore
import RPCCore

/// One HTTP/2 server connection: an nghttp2 session fed from the channel, turning request
/// streams into `ServerStream`s for the transport's task group, and call output (through
/// the mailbox) into frames.
///
/// Invariants:
/// - Everything here runs on the channel's event loop; calls reach it only via `mailbox`.
/// - nghttp2 is never re-entered from its own callbacks: callbacks record `actions` and
///   flow-control releases (`credit`), which run after `mem_recv`/`mem_send` return.
/// - Output is produced in one place, `flushOutput`: one buffer, one write per burst; not
///   while the channel is unwritable (so a client that does not read gets no more than
///   the socket's buffer plus each stream's watermark).
/// - State is marked `@exclusivity(unchecked)`: it is touched by one thread, in simple
///   accesses that never overlap, and the dynamic checks were a tenth of the loop's time.
/// - Every DATA byte received is released to its stream's window exactly once: eagerly,
///   when its call takes it, or when its stream is forgotten.
/// - Receive budget: the connection window is `receiveWindow`, and it gets credit back only
///   for bytes no call holds: bytes for no active call at once, the rest once the call
///   took them (as reported), when its stream is forgotten, or, for the message still
///   arriving on a stream whose handler waits for it, on arrival (lent). `receiveHeld` is
///   the sum of the streams' `held`: never more than `receiveWindow`.
final class ServerConnectionHandler: NGHTTP2ServerConnection {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The header block being received: a request's (parsed) or a trailer block (counted).
    /// Kept in place on the handler and reset per block, so that each field is added
    /// without copying the parser.
    struct HeaderBlock {
        /// 0 while no block is being received.
        var stream: Int32 = 0
        var isRequest = false
        var parser: RequestHeadParser
        var trailerBytes = 0

        init(maxHeaderListSize: Int) {
            parser = RequestHeadParser(maxHeaderListSize: maxHeaderListSize)
        }

        mutating func begin(stream: Int32, isRequest: Bool) {
            self.stream = stream
            self.isRequest = isRequest
            if isRequest { parser.reset() } else { trailerBytes = 0 }
        }

        /// Takes one field; returns the block's size so far.
        mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, cache: HeaderStringCache) -> Int
        {
            if isRequest {
                parser.add(name: name, value: value, cache: cache)
                return parser.size
            }
            trailerBytes += HeaderListSize.fieldSize(nameCount: name.count, valueCount: value.count)
            return trailerBytes
        }
    }

    enum Action {
        case answer(stream: Int32, RequestRejection)
        case reset(stream: Int32, errorCode: UInt32)
        case finalGoAway
        /// nghttp2 could not send a stream's header block (see `headersNotSent`).
        case headersNotSent(stream: Int32, trailers: Bool)
    }

    let config: NIOServerConfig
    let calls: InboundQueue<ServerStream>
    /// Starts the calls of a read burst on this loop (nil: they all go to `calls`).
    let starter: LoopCallStarter?
    /// The HTTP/JSON routes served beside gRPC (nil: gRPC only).
    let jsonRoutes: JSONRoutes?
    @exclusivity(unchecked) var session: NGHTTP2Session?
    @exclusivity(unchecked) var context: ChannelHandlerContext?
    @exclusivity(unchecked) var mailbox: Mailbox<ServerCommand>?
    let streams = StreamTable<ServerStreamState>()
    @exclusivity(unchecked) var headerBlock: HeaderBlock
    @exclusivity(unchecked) var encoder = HeaderEncoder()
    let headerStrings = HeaderStringCache()
    @exclusivity(unchecked) var spare: [ServerCommand] = []
    /// Calls opened during the current read burst, handed to the transport together at
    /// its end (one lock and at most one wake-up of the dispatcher per burst).
    @exclusivity(unchecked) var openedCalls: [ServerStream] = []
    @exclusivity(unchecked) var actions: [Action] = []
    @exclusivity(unchecked) var credit = ReceiveCredit(connectionCredit: .separate)
    /// The connection's receive window: the receive budget (see `HTTP2Config.receiveBudget`).
    let receiveWindow: Int
    /// Response bytes queued on all streams (see `HTTP2Config.connectionOutboundLimit`):
    /// every byte in an outbox is counted here until nghttp2 takes it or it is dropped.
    let outbound: OutboundBudget
    /// Request bytes of active calls the connection window has not had back.
    @exclusivity(unchecked) var receiveHeld = 0
    @exclusivity(unchecked) var fault: UInt32?
    @exclusivity(unchecked) var spareOutput: ByteBuffer?
    @exclusivity(unchecked) var remotePeer = "unknown"
    @exclusivity(unchecked) var keepalive = KeepaliveState()
    @exclusivity(unchecked) var shutdown = GracefulShutdownState()
    @exclusivity(unchecked) var timers = ConnectionTimers()
    @exclusivity(unchecked) var lingering = false
    @exclusivity(unchecked) var lingerTimer: Scheduled<Void>?
    var started = false

    init(
        config: NIOServerConfig, calls: InboundQueue<ServerStream>, starter: LoopCallStarter? = nil,
        jsonRoutes: JSONRoutes? = nil
    ) {
        self.config = config
        self.calls = calls
        self.starter = starter
        self.jsonRoutes = jsonRoutes
        self.headerBlock = HeaderBlock(maxHeaderListSize: config.http2.maxHeaderListSize)
        self.receiveWindow = max(65_535, min(config.http2.connectionWindowSize, config.http2.receiveBudget))
        self.outbound = OutboundBudget(limit: config.http2.connectionOutboundLimit)
    }

    // MARK: Channel events

    // (handlerAdded and channelActive: NGHTTP2ServerConnection's.)

    func sessionStarting(_ context: ChannelHandlerContext) {
        remotePeer = PeerAddress.describe(context.channel.remoteAddress)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session, !lingering else { return }
        let buffer = unwrapInboundIn(data)
        do {
            try session.receive(buffer)
        } catch {
            sessionFailed(error)
            return
        }
        runActions()
    }

    /// The calls opened during the burst start together (one lock, at most one wake-up of
    /// the dispatcher, or one pass of immediate tasks here); what those that ran here sent
    /// goes out in this write, with the burst's window updates.
    func channelReadComplete(context: ChannelHandlerContext) {
        if let starter, starter.start(&openedCalls), mailbox != nil {
            drainMailbox()
        } else {
            calls.push(contentsOf: &openedCalls)
            flushOutput()
        }
    }

    func dropMailbox() { mailbox = nil }

    /// The connection is gone: every call still running is cancelled.
    func tearDown() {
        let error = RPCError(code: .cancelled, message: "The connection closed")
        outbound.close(error)
        for stream in streams.values { stream.abandonCall(error) }
        streams.removeAll()
        // Started calls always reach the handlers, which see them abandoned and end.
        calls.push(contentsOf: &openedCalls)
        mailbox?.close(returningPending: &spare)
        spare.removeAll()
        timers.cancelAll()
        lingerTimer?.cancel()
        lingerTimer = nil
    }

    // MARK: Output

    /// Runs what callbacks queued, turns every ready frame into one write, and closes the
    /// connection once nghttp2 wants neither to read nor to write.
    func flushOutput() {
        guard !lingering, let session = writeReadyFrames() else { return }
        if !session.wantsReadOrWrite {
            closeAfterLastFrames()
            return
        }
        watchIdleness()
    }

    var hasQueuedActions: Bool { !actions.isEmpty || !credit.isEmpty }
    var http2: HTTP2Config { config.http2 }
    var keepaliveConfig: KeepaliveConfig? { config.keepalive }
    var resetRateLimit: ResetRateLimit { config.resetRateLimit }
    var shutdownPingTimeout: Duration { config.shutdownPingTimeout }
    func queueFinalGoAway() { actions.append(.finalGoAway) }
    var peerDescription: String { remotePeer }
    var events: ConnectionEventSink? { config.events }
    var idleTimeout: Duration? { config.idleTimeout }
    var hasOpenStreams: Bool { !streams.isEmpty }

    /// Request bytes this connection holds in memory: messages queued for their calls and
    /// messages still arriving (for tests; walks every stream).
    var bufferedRequestBytes: Int {
        streams.values.reduce(0) { $0 + $1.deframer.bufferedBytes + $1.jsonBody.count + $1.queuedRequestBytes }
    }
}
