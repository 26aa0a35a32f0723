import Synchronization

/// How a streaming handler sends messages. Initial metadata goes out with the first message
/// (or with the status, trailers-only, when there is none).
public struct ResponseWriter<Message: Sendable>: Sendable {
    let stream: ServerStream
    let serializer: any MessageSerializer<Message>
    let progress: ResponseProgress

    /// Sets the initial metadata; only before the first message.
    public func setMetadata(_ metadata: Metadata) {
        progress.setInitialMetadata(metadata)
    }

    /// Sends one message; waits while the client is not reading fast enough.
    public func write(_ message: Message) async throws {
        try await write(message, flush: true)
    }

    /// Waits until the connection can take a message of about `bytes` and holds that room
    /// for the next `write`: a handler that produces large messages (a file's chunks) calls
    /// it before reading the next one, so that a client that stops reading leaves it
    /// waiting with nothing in hand. Room held beyond the message's size goes back.
    public func reserveRoom(forMessageOf bytes: Int) async throws {
        try await stream.reserveRoom(bytes)
    }

    /// Sends each message of `messages` in order, flushing once after the last: many small
    /// messages share frames and system calls.
    public func write(contentsOf messages: some Collection<Message>) async throws {
        var remaining = messages.count
        for message in messages {
            remaining -= 1
            try await write(message, flush: remaining == 0)
        }
    }

    private func write(_ message: Message, flush: Bool) async throws {
        let bytes: [UInt8]
        do {
            bytes = try serializer.serialize(message)
        } catch {
            throw RPCError(code: .internal, message: "Failed to serialize a response: \(error)")
        }
        if let metadata = progress.takeInitialMetadataIfUnsent() {
            try await stream.write(.metadata(metadata), flush: false)
        }
        try await stream.write(.message(bytes), flush: flush)
    }
}

/// Whether a call's initial metadata has gone out yet (shared by the writer and the
/// runtime, which sends the status).
final class ResponseProgress: Sendable {
    private struct State {
        var initialMetadata = Metadata()
        var sent = false
    }

    private let state = Mutex(State())

    func setInitialMetadata(_ metadata: Metadata) {
        state.withLock { if !$0.sent { $0.initialMetadata = metadata } }
    }

    /// The metadata to send, the first time only.
    func takeInitialMetadataIfUnsent() -> Metadata? {
        state.withLock { state in
            if state.sent { return nil }
            state.sent = true
            return state.initialMetadata
        }
    }

    var hasSentInitialMetadata: Bool { state.withLock { $0.sent } }
}
