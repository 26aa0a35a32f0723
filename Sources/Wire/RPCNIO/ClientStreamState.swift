import NIOCore
import RPCCore

/// Commands from client calls to their connection's event loop. Calls are named by a
/// token until nghttp2 gives their stream an id.
enum ClientCommand: Sendable {
    case open(token: Int, ClientRequestHead, ClientCallQueues)
    case message(token: Int, [UInt8], endStream: Bool)
    case finish(token: Int)
    case cancel(token: Int)
    case released(token: Int, bytes: Int)
}

/// The Sendable halves a call shares with its connection.
struct ClientCallQueues: Sendable {
    let inbound: InboundQueue<RPCResponsePart>
    let gate: OutboundGate

    /// Ends the call with `status` from outside the event loop (nothing was sent).
    func fail(_ status: Status, trailers: Metadata = Metadata()) {
        inbound.push(.status(status, trailers))
        inbound.finish()
        gate.close(RPCError(status: status))
    }
}

/// One call on a client connection, owned by the event loop.
///
/// Invariants: the call's inbound queue gets exactly one `.status` (`finished` turns true
/// then); `unreleased` counts received DATA bytes not yet released to flow control, all of
/// which are released by the time the stream is forgotten.
final class ClientStreamState: CreditedStream {
    let token: Int
    let queues: ClientCallQueues
    @exclusivity(unchecked) var id: Int32 = 0
    @exclusivity(unchecked) var parser: ResponseHeadParser?
    @exclusivity(unchecked) var deframer: MessageDeframer
    @exclusivity(unchecked) var outbox = OutboundMessages()
    @exclusivity(unchecked) var requestEnded = false
    @exclusivity(unchecked) var dataDeferred = false
    @exclusivity(unchecked) var finished = false
    @exclusivity(unchecked) var unreleased = 0
    @exclusivity(unchecked) var headerBytes = 0
    @exclusivity(unchecked) var deadlineTimer: Scheduled<Void>?

    init(token: Int, queues: ClientCallQueues, maxMessageSize: Int) {
        self.token = token
        self.queues = queues
        self.deframer = MessageDeframer(maxMessageSize: maxMessageSize)
    }

    /// Delivers the final status (once).
    func finish(_ status: Status, _ trailers: Metadata) {
        guard !finished else { return }
        finished = true
        deadlineTimer?.cancel()
        deadlineTimer = nil
        queues.inbound.push(.status(status, trailers))
        queues.inbound.finish()
        queues.gate.close(RPCError(code: status.code == .ok ? .cancelled : status.code, message: status.message))
        outbox.removeAll()
    }
}

/// A client call's sending half on the HTTP/2 transport.
struct ClientStreamWriter: ClientStreamOutbound {
    let token: Int
    let mailbox: Mailbox<ClientCommand>
    let gate: OutboundGate

    func write(_ message: [UInt8], endStream: Bool) async throws {
        if gate.isClosed { try await gate.add(0) }
        mailbox.send(.message(token: token, message, endStream: endStream))
        try await gate.add(message.count + MessagePrefix.size)
    }

    func flush() { mailbox.flush() }
    func finish() { mailbox.send(.finish(token: token)) }
    func cancel() { mailbox.send(.cancel(token: token)) }
    var isClosed: Bool { gate.isClosed }
}

/// Gives back flow-control credit for response bytes a call took late.
struct ClientFlowObserver: InboundFlowObserver {
    let mailbox: Mailbox<ClientCommand>
    let token: Int

    func owedBytesTaken(_ bytes: Int) { mailbox.send(.released(token: token, bytes: bytes)) }
}
