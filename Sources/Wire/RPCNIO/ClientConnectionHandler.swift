import CNghttp2
import NIOCore
import RPCCore
import Synchronization

/// One HTTP/2 client connection: an nghttp2 client session that multiplexes calls.
///
/// Invariants (as on the server side):
/// - Everything here runs on the channel's event loop; calls reach it via `mailbox`.
/// - nghttp2 is never re-entered from its callbacks: they record `actions` and `credit`.
/// - One write per burst, in `flushOutput`, and none while the channel is unwritable.
/// - State is marked `@exclusivity(unchecked)`: it is touched by one thread, in simple
///   accesses that never overlap, and the dynamic checks were a tenth of the loop's time.
/// - Every call ends with exactly one status: from the server, a reset, the deadline, a
///   cancel, or the connection's end (UNAVAILABLE).
final class ClientConnectionHandler: NGHTTP2ConnectionHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum Action {
        case reset(stream: Int32, errorCode: UInt32)
    }

    let config: NIOClientConfig
    let authority: String
    let state: ClientConnectionState
    @exclusivity(unchecked) var session: NGHTTP2Session?
    @exclusivity(unchecked) var context: ChannelHandlerContext?
    @exclusivity(unchecked) var mailbox: Mailbox<ClientCommand>?
    let byID = StreamTable<ClientStreamState>()
    @exclusivity(unchecked) var byToken: [Int: ClientStreamState] = [:]
    @exclusivity(unchecked) var encoder = HeaderEncoder()
    @exclusivity(unchecked) var spare: [ClientCommand] = []
    @exclusivity(unchecked) var actions: [Action] = []
    @exclusivity(unchecked) var credit = ReceiveCredit(connectionCredit: .withStreams)
    @exclusivity(unchecked) var fault: UInt32?
    @exclusivity(unchecked) var spareOutput: ByteBuffer?
    @exclusivity(unchecked) var keepalive = KeepaliveState()
    @exclusivity(unchecked) var timers = ConnectionTimers()
    @exclusivity(unchecked) var closeWhenIdle = false
    private var started = false

    init(config: NIOClientConfig, authority: String, state: ClientConnectionState) {
        self.config = config
        self.authority = authority
        self.state = state
    }

    func makeMailbox(eventLoop: any EventLoop) -> Mailbox<ClientCommand> {
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        let mailbox = Mailbox<ClientCommand>(eventLoop: eventLoop) { loopBound.value.drainMailbox() }
        self.mailbox = mailbox
        return mailbox
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        do {
            session = try NGHTTP2Session(
                options: .init(role: .client, resetRateLimit: nil), delegate: self)
        } catch {
            context.close(promise: nil)
            return
        }
        if context.channel.isActive { start() }
    }

    func channelActive(context: ChannelHandlerContext) {
        start()
        context.fireChannelActive()
    }

    private func start() {
        guard !started, let session else { return }
        started = true
        do {
            try session.start(config.http2, connectionWindow: config.http2.connectionWindowSize, isClient: true)
        } catch {
            context?.close(promise: nil)
            return
        }
        scheduleKeepalive()
        flushOutput()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session else { return }
        do {
            try session.receive(unwrapInboundIn(data))
        } catch {
            try? session.terminate(errorCode: fault ?? HTTP2ErrorCode.protocolError)  // closing either way
            flushOutput()
            context.close(promise: nil)
            return
        }
        runActions()
    }

    func channelReadComplete(context: ChannelHandlerContext) { flushOutput() }

    func dropMailbox() { mailbox = nil }

    /// The connection is gone: every call still open is UNAVAILABLE.
    func tearDown() {
        state.markUnusable()
        let status = Status(code: .unavailable, message: "The connection closed")
        for stream in byToken.values { stream.finish(status, Metadata()) }
        byToken.removeAll()
        byID.removeAll()
        mailbox?.close(returningPending: &spare)
        // Calls still in the mailbox never left: they may be made again elsewhere.
        for case .open(_, _, let queues) in spare { queues.fail(status, trailers: RequestNotSent.trailers) }
        spare.removeAll()
        timers.cancelAll()
    }

    /// Runs queued actions, writes every ready frame at once, closes when done.
    func flushOutput() {
        guard let session = writeReadyFrames() else { return }
        if !session.wantsReadOrWrite || (closeWhenIdle && byToken.isEmpty) {
            context?.close(promise: nil)
        }
    }

    var hasQueuedActions: Bool { !actions.isEmpty || !credit.isEmpty }
    var http2: HTTP2Config { config.http2 }

    func runActions() {
        guard let session else { return }
        let pending = actions
        actions.removeAll(keepingCapacity: true)
        for action in pending {
            switch action {
            case .reset(let id, let errorCode):
                submit { session throws(NGHTTP2Error) in try session.resetStream(id, errorCode: errorCode) }
            }
        }
        credit.give(to: session)
    }

    /// No new calls; close once the calls in flight are done.
    func beginGracefulShutdown() {
        state.markUnusable()
        closeWhenIdle = true
        flushOutput()
    }
}

/// What the transport and the event loop share about a connection.
final class ClientConnectionState: Sendable {
    private let usable = Atomic<Bool>(true)
    private let nextToken = Atomic<Int>(0)

    var isUsable: Bool { usable.load(ordering: .acquiring) }
    func markUnusable() { usable.store(false, ordering: .releasing) }
    func makeToken() -> Int { nextToken.wrappingAdd(1, ordering: .relaxed).newValue }
}
