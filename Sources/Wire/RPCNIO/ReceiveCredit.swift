import RPCCore

/// A stream whose received DATA bytes are counted until they are given back to flow control.
package protocol CreditedStream: AnyObject {
    var id: Int32 { get }
    /// Received DATA bytes not yet released to nghttp2's flow control.
    var unreleased: Int { get set }
}

/// Received DATA bytes on their way back to nghttp2's flow control, shared by the client
/// and server connections.
///
/// nghttp2 must not be re-entered from its callbacks, so releases made there are recorded
/// here and handed to the session (`give(to:)`) once `mem_recv`/`mem_send` returned.
///
/// Stream windows and the connection window get their credit back apart. On the client a
/// release gives both (`.withStreams`). On the server (`.separate`) the connection window
/// is the receive budget, and the connection credits it itself (`releaseConnection`) for
/// the bytes its calls no longer hold.
///
/// Invariant: every byte counted in a stream's `unreleased` is released to the stream
/// exactly once: when its call takes it (`release`), or when the stream is forgotten
/// (`forget`); bytes for streams no longer known go back to the connection window at once.
package struct ReceiveCredit {
    package enum ConnectionCredit {
        /// Each release to a stream's window is one to the connection window too.
        case withStreams
        /// The connection window is credited only through `releaseConnection`.
        case separate
    }

    package let connectionCredit: ConnectionCredit
    private var streams: [(stream: Int32, bytes: Int)] = []
    private var connection = 0

    package init(connectionCredit: ConnectionCredit) {
        self.connectionCredit = connectionCredit
    }

    /// True when nothing waits to be handed to the session.
    package var isEmpty: Bool { streams.isEmpty && connection == 0 }

    /// DATA arrived on `stream` (nil: a stream already forgotten, whose bytes nobody holds).
    package mutating func received(_ count: Int, on stream: (some CreditedStream)?) {
        if let stream {
            stream.unreleased += count
        } else {
            connection += count
        }
    }

    /// `bytes` of `stream`'s received data may be sent again by the peer on that stream
    /// (and, with `.withStreams`, on the connection).
    package mutating func release(_ bytes: Int, of stream: some CreditedStream) {
        guard bytes > 0 else { return }
        stream.unreleased -= bytes
        streams.append((stream.id, bytes))
        if connectionCredit == .withStreams { connection += bytes }
    }

    /// `bytes` more may be sent on the connection.
    package mutating func releaseConnection(_ bytes: Int) {
        connection += bytes
    }

    /// `stream` is gone: with `.withStreams`, what it still held goes back to the
    /// connection window (its own window is gone with it).
    package mutating func forget(_ stream: some CreditedStream) {
        if connectionCredit == .withStreams { connection += stream.unreleased }
        stream.unreleased = 0
    }

    /// Hands every recorded release to nghttp2 (outside its callbacks).
    package mutating func give(to session: NGHTTP2Session) {
        for release in streams { session.consumeStream(release.stream, bytes: release.bytes) }
        streams.removeAll(keepingCapacity: true)
        if connection > 0 {
            session.consumeConnection(bytes: connection)
            connection = 0
        }
    }

    /// Deframes one DATA chunk of `stream` into messages for `push` (which returns false
    /// when it keeps a message's bytes owed) and releases the rest of the chunk. On a
    /// framing error everything the stream holds is released and the error is thrown.
    mutating func deframe<Stream: CreditedStream>(
        _ data: UnsafeRawBufferPointer, of stream: Stream, with deframer: inout MessageDeframer,
        push: ([UInt8]) -> Bool
    ) throws(MessageDeframer.Failure) {
        var owed = 0
        do {
            try deframer.process(data) { message in
                if !push(message) { owed += message.count + MessagePrefix.size }
            }
        } catch {
            release(stream.unreleased, of: stream)
            throw error
        }
        release(data.count - min(data.count, owed), of: stream)
    }
}
