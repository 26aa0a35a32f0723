import Synchronization

/// One call of the in-process transport: both halves of the stream, joined by two queues.
///
/// Invariants: the client's inbound queue receives exactly one `.status`, from whichever
/// comes first of the server's status, a client cancel, or the deadline; after that both
/// queues are closed, both gates are closed and later writes are ignored (server) or fail
/// (client). Flow control mirrors HTTP/2: a writer waits while the reader's queue holds
/// more than the allowance.
final class InProcessCall: Sendable {
    let requests: InboundQueue<[UInt8]>
    let responses: InboundQueue<RPCResponsePart>
    let requestGate = OutboundGate()
    let responseGate = OutboundGate()
    let cancellation = CancellationSlot()
    let maxReceiveMessageSize: Int
    private let state = Mutex(State())

    private struct State {
        var finished = false
        var requestsEnded = false
    }

    init(maxReceiveMessageSize: Int, allowance: Int = 64 * 1024) {
        self.maxReceiveMessageSize = maxReceiveMessageSize
        requests = InboundQueue(eagerAllowance: allowance, observer: requestGate)
        responses = InboundQueue(eagerAllowance: allowance, observer: responseGate)
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
            requests.fail(RPCError(status: status))
            cancellation.cancel()
        } else {
            requests.finish()
        }
        return true
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    // MARK: Client side

    func clientWrite(_ message: [UInt8], endStream: Bool) async throws {
        if isFinished { throw RPCError(code: .cancelled, message: "The call is over") }
        if message.count > maxReceiveMessageSize {
            let status = Status(code: .resourceExhausted,
                                message: "Received message larger than max (\(message.count) vs. \(maxReceiveMessageSize))")
            finish(status, Metadata(), cancelServer: true)
            return
        }
        let eager = requests.push(message, bytes: message.count + MessagePrefix.size)
        if endStream { clientFinish() }
        if !eager { try await requestGate.add(message.count + MessagePrefix.size) }
    }

    func clientFinish() {
        let first = state.withLock { state in
            defer { state.requestsEnded = true }
            return !state.requestsEnded
        }
        if first { requests.finish() }
    }

    // MARK: Server side

    /// Without backpressure (bounded parts that end a call).
    func serverSend(_ part: RPCResponsePart) {
        switch part {
        case .status(let status, let trailers): finish(status, trailers, cancelServer: false)
        case .metadata, .message: if !isFinished { responses.push(part) }
        }
    }

    func serverWrite(_ part: RPCResponsePart) async throws {
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

struct InProcessServerOutbound: ServerStreamOutbound {
    let call: InProcessCall
    func write(_ part: RPCResponsePart, flush: Bool) async throws { try await call.serverWrite(part) }
    func send(_ part: RPCResponsePart, flush: Bool) { call.serverSend(part) }
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
