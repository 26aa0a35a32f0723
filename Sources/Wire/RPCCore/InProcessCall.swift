import Synchronization

/// One call of the in-process transport: the server's stream, and the client's half
/// joined to it by a queue of responses.
///
/// Invariants: the client's inbound queue receives exactly one `.status`, from whichever
/// comes first of the server's status, a client cancel, or the deadline; after that the
/// requests are ended (or the call abandoned), both gates are closed and later writes are
/// ignored (server) or fail (client). Flow control mirrors HTTP/2: a writer waits while
/// the reader's queue holds more than the allowance.
final class InProcessCall: ServerStream, @unchecked Sendable {
    // Unchecked: the added state is immutable or under its own locks.
    let responses: InboundQueue<RPCResponsePart>
    let requestGate = OutboundGate()
    let responseGate = OutboundGate()
    let maxReceiveMessageSize: Int
    private let state = Mutex(State())

    private struct State {
        var finished = false
        var requestsEnded = false
    }

    init(head: RequestHead, deadline: ContinuousClock.Instant?, maxReceiveMessageSize: Int, allowance: Int = 64 * 1024)
    {
        self.maxReceiveMessageSize = maxReceiveMessageSize
        responses = InboundQueue(eagerAllowance: allowance, observer: responseGate)
        super.init(head: head, deadline: deadline, remotePeer: "in-process", eagerAllowance: allowance)
    }

    /// Ends the call with `status` unless it has ended already. Returns false if it had.
    @discardableResult
    func finish(_ status: Status, _ trailers: Metadata, cancelServer: Bool) -> Bool {
        let first = state.withLock { state in
            defer { state.finished = true }
            return !state.finished
        }
        guard first else { return false }
        responses.push(.status(status, trailers))
        responses.finish()
        let gateError = RPCError(code: status.code == .ok ? .cancelled : status.code, message: status.message)
        requestGate.close(gateError)
        responseGate.close(gateError)
        if cancelServer {
            abandon(RPCError(status: status))
        } else {
            finishRequests()
        }
        return true
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    // MARK: Client side

    func clientWrite(_ message: [UInt8], endStream: Bool) async throws {
        if isFinished { throw RPCError(code: .cancelled, message: "The call is over") }
        if message.count > maxReceiveMessageSize {
            let status = Status(
                code: .resourceExhausted,
                message: "Received message larger than max (\(message.count) vs. \(maxReceiveMessageSize))")
            finish(status, Metadata(), cancelServer: true)
            return
        }
        let owed = pushRequest(message, bytes: message.count + MessagePrefix.size) == .owed
        if endStream { clientFinish() }
        if owed { try await requestGate.add(message.count + MessagePrefix.size) }
    }

    func clientFinish() {
        let first = state.withLock { state in
            defer { state.requestsEnded = true }
            return !state.requestsEnded
        }
        if first { finishRequests() }
    }

    // MARK: Server side

    override func requestBytesTaken(owed: Int, taken: Int, waiting: Bool) {
        if owed > 0 { requestGate.release(owed) }
    }

    /// Without backpressure (bounded parts that end a call).
    override func send(_ part: RPCResponsePart, flush: Bool) {
        switch part {
        case .status(let status, let trailers): finish(status, trailers, cancelServer: false)
        case .metadata, .message: if !isFinished { responses.push(part) }
        }
    }

    override func write(_ part: RPCResponsePart, flush: Bool) async throws {
        switch part {
        case .status(let status, let trailers):
            finish(status, trailers, cancelServer: false)
        case .metadata:
            if isFinished { return }
            responses.push(part)
        case .message(let bytes):
            if isFinished { throw RPCError(code: .cancelled, message: "The call is over") }
            let eager = responses.push(part, bytes: bytes.count + MessagePrefix.size)
            if !eager { try await responseGate.add(bytes.count + MessagePrefix.size) }
        }
    }
}

struct InProcessClientOutbound: ClientStreamOutbound {
    let call: InProcessCall
    func write(_ message: [UInt8], endStream: Bool) async throws {
        try await call.clientWrite(message, endStream: endStream)
    }
    func flush() {}
    func finish() { call.clientFinish() }
    func cancel() {
        call.finish(Status(code: .cancelled, message: "Cancelled by the client"), Metadata(), cancelServer: true)
    }
    var isClosed: Bool { call.isFinished }
}
