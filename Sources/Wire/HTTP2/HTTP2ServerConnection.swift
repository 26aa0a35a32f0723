import NIOCore
import NIOTLS
import RPCCore
import RPCNIO

/// A request on its way to the handler, and where its answer goes.
struct PendingRequest: Sendable {
    let request: HTTP2Request
    let answers: Mailbox<Answer>
}

/// A handler's response, on its way back to the connection's event loop.
struct Answer: Sendable {
    let stream: Int32
    let response: HTTP2Response
}

/// One HTTP/2 connection of an `HTTP2Server`: an nghttp2 session fed from the channel
/// (behind TLS or not), turning request streams into `PendingRequest`s for the server's
/// handler tasks, and answers (through the mailbox) into HEADERS and DATA.
///
/// Invariants:
/// - Everything here runs on the channel's event loop; answers reach it only through
///   `mailbox`.
/// - nghttp2 is never re-entered from its callbacks: they record `actions` and `credit`,
///   which run once `mem_recv`/`mem_send` returned.
/// - Output goes out in one place, `flushOutput` (one write per burst, none while the
///   channel is unwritable).
/// - Receive budget: the connection window is `receiveWindow`, and it gets credit back at
///   once for bytes no stream keeps (past `maxRequestBody`, for streams gone or answered),
///   and for a stream's kept body once it is answered or forgotten. `receiveHeld`, the sum
///   of the streams' `held`, never exceeds `receiveWindow`.
final class HTTP2ServerConnection: NGHTTP2ServerConnection {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum Action {
        /// The server answers the stream itself (a refused header block).
        case answer(stream: Int32, status: Int)
        case reset(stream: Int32, errorCode: UInt32)
        case finalGoAway
        case goAway(HTTP2GoAway)
    }

    let config: HTTP2ServerConfig
    let requests: InboundQueue<PendingRequest>
    let handler: any HTTP2Handler
    @exclusivity(unchecked) var info: HTTP2ConnectionInfo
    @exclusivity(unchecked) var session: NGHTTP2Session?
    @exclusivity(unchecked) var context: ChannelHandlerContext?
    @exclusivity(unchecked) var mailbox: Mailbox<Answer>?
    let streams = StreamTable<RequestStream>()
    @exclusivity(unchecked) var collector: RequestHeadCollector
    let headerStrings = HeaderStringCache()
    @exclusivity(unchecked) var encoder = HeaderEncoder()
    @exclusivity(unchecked) var spare: [Answer] = []
    /// Requests complete in the current read burst, handed over together at its end.
    @exclusivity(unchecked) var opened: [PendingRequest] = []
    @exclusivity(unchecked) var actions: [Action] = []
    @exclusivity(unchecked) var credit = ReceiveCredit(connectionCredit: .separate)
    let receiveWindow: Int
    @exclusivity(unchecked) var receiveHeld = 0
    @exclusivity(unchecked) var fault: UInt32?
    @exclusivity(unchecked) var spareOutput: ByteBuffer?
    @exclusivity(unchecked) var keepalive = KeepaliveState()
    @exclusivity(unchecked) var shutdown = GracefulShutdownState()
    @exclusivity(unchecked) var timers = ConnectionTimers()
    /// Our side is closed (FIN sent); what the client still sends is dropped.
    @exclusivity(unchecked) var lingering = false
    @exclusivity(unchecked) var lingerTimer: Scheduled<Void>?
    var started = false
    private var closed = false
    /// A response trusted the connection: its stream limit was raised (see
    /// `HTTP2ServerConfig.maxConcurrentStreamsUntilTrusted`).
    @exclusivity(unchecked) var trusted = false

    init(
        config: HTTP2ServerConfig, info: HTTP2ConnectionInfo, requests: InboundQueue<PendingRequest>,
        handler: any HTTP2Handler
    ) {
        self.config = config
        self.info = info
        self.requests = requests
        self.handler = handler
        self.collector = RequestHeadCollector(maxHeaderListSize: config.http2.maxHeaderListSize)
        self.receiveWindow = max(65_535, min(config.http2.connectionWindowSize, config.http2.receiveBudget))
    }

    /// The settings the session starts with: the stream limit is the untrusted one until
    /// a response trusts the connection.
    var http2: HTTP2Config {
        var settings = config.http2
        if let untrusted = config.maxConcurrentStreamsUntilTrusted, !trusted {
            settings.maxConcurrentStreams = untrusted
        }
        return settings
    }
    var keepaliveConfig: KeepaliveConfig? { config.keepalive }
    var resetRateLimit: ResetRateLimit { config.resetRateLimit }
    var shutdownPingTimeout: Duration { config.shutdownPingTimeout }
    var hasQueuedActions: Bool { !actions.isEmpty || !credit.isEmpty }
    func queueFinalGoAway() { actions.append(.finalGoAway) }
    var peerDescription: String { PeerAddress.describe(info.peer) }
    var events: ConnectionEventSink? { config.events }
    var idleTimeout: Duration? { config.idleTimeout }
    var hasOpenStreams: Bool { !streams.isEmpty }

    // MARK: Channel events (handlerAdded and channelActive: NGHTTP2ServerConnection's)

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted(let negotiated) = event as? TLSUserEvent {
            info.alpn = negotiated
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session, !lingering else { return }
        do {
            try session.receive(unwrapInboundIn(data))
        } catch {
            sessionFailed(error)
            return
        }
        runActions()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        requests.push(contentsOf: &opened)  // once per read burst
        flushOutput()
    }

    func dropMailbox() { mailbox = nil }

    /// The connection is gone: requests not yet handed over are dropped (their answers
    /// could go nowhere), answers still coming are refused, and the handler is told.
    func tearDown() {
        streams.removeAll()
        opened.removeAll()
        mailbox?.close(returningPending: &spare)
        spare.removeAll()
        timers.cancelAll()
        lingerTimer?.cancel()
        lingerTimer = nil
        if started, !closed {
            closed = true
            handler.connectionClosed(info)
        }
    }

    /// Runs what callbacks queued, writes every ready frame at once, and closes the
    /// connection once nghttp2 wants neither to read nor to write (after a GOAWAY, when
    /// the last stream is done).
    func flushOutput() {
        guard !lingering, let session = writeReadyFrames() else { return }
        if !session.wantsReadOrWrite {
            closeAfterLastFrames()
            return
        }
        watchIdleness()
    }
}
