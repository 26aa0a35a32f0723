import NIOCore
import RPCCore

/// Commands from server calls to their connection's event loop.
enum ServerCommand: Sendable {
    case part(stream: Int32, RPCResponsePart)
    /// A call took owed bytes: release them to flow control.
    case released(stream: Int32, bytes: Int)
    /// A unary-style response in one command: metadata, message, OK with trailers.
    case single(stream: Int32, metadata: Metadata, message: [UInt8], trailers: Metadata)
}

/// A server call's sending half on the HTTP/2 transport: parts go through the connection's
/// mailbox; message bytes count against the stream's gate until nghttp2 frames them.
struct ServerStreamWriter: ServerStreamOutbound {
    let stream: Int32
    let mailbox: Mailbox<ServerCommand>
    let gate: OutboundGate

    func write(_ part: RPCResponsePart, flush: Bool) async throws {
        if case .message(let bytes) = part {
            if gate.isClosed { try await gate.add(0) }  // throws the reason the stream is gone
            mailbox.send(.part(stream: stream, part), flush: flush)
            try await gate.add(bytes.count + MessagePrefix.size) { mailbox.flush() }
        } else {
            mailbox.send(.part(stream: stream, part), flush: flush)
        }
    }

    func send(_ part: RPCResponsePart, flush: Bool) {
        mailbox.send(.part(stream: stream, part), flush: flush)
    }

    func sendSingleResponse(metadata: Metadata, message: [UInt8], trailers: Metadata) {
        mailbox.send(.single(stream: stream, metadata: metadata, message: message, trailers: trailers))
    }
}

/// Gives back flow-control credit for request bytes a call took late (see `InboundQueue`).
struct ServerFlowObserver: InboundFlowObserver {
    let mailbox: Mailbox<ServerCommand>
    let stream: Int32

    func owedBytesTaken(_ bytes: Int) { mailbox.send(.released(stream: stream, bytes: bytes)) }
}
