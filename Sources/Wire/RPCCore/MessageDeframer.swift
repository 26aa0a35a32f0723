/// Reassembles gRPC's length-prefixed messages (1 flag byte, 4 length bytes big-endian,
/// then the message) from DATA payloads cut at arbitrary places.
///
/// Invariants:
/// - While reading a prefix, `prefixCount` is in 0..<5 and `body` is nil.
/// - While reading a body, `body` holds fewer than `bodyLength` bytes; `bodyLength` never
///   exceeds `maxMessageSize` (a larger prefix fails before any body byte is kept).
/// - After a failure the deframer must not be fed again (the stream is answered).
public struct MessageDeframer: Sendable {
    public enum Failure: Error, Sendable, Hashable {
        /// The prefix announced more than the receive limit.
        case messageTooLarge(length: Int, limit: Int)
        /// Compressed flag set on a stream without a message encoding.
        case compressedWithoutEncoding
        /// A flag byte other than 0 or 1.
        case invalidFlags(UInt8)
        /// The stream ended inside a message.
        case truncated

        /// The status a peer is answered with, as grpc-core chooses it.
        public var status: Status {
            switch self {
            case .messageTooLarge(let length, let limit):
                Status(
                    code: .resourceExhausted,
                    message: "Received message larger than max (\(length) vs. \(limit))")
            case .compressedWithoutEncoding:
                Status(code: .internal, message: "Compressed message without grpc-encoding")
            case .invalidFlags(let flags):
                Status(code: .internal, message: "Invalid message flags \(flags)")
            case .truncated:
                Status(code: .internal, message: "Stream ended inside a message")
            }
        }
    }

    public let maxMessageSize: Int
    private var prefixCount = 0
    private var flags: UInt8 = 0
    private var bodyLength = 0
    private var body: [UInt8]? = nil

    public init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
    }

    /// True while part of a message has arrived and the rest has not.
    public var hasPartialMessage: Bool { prefixCount > 0 || body != nil }

    /// Bytes of the message still arriving that have arrived, its prefix included.
    public var bufferedBytes: Int { body.map { MessagePrefix.size + $0.count } ?? prefixCount }

    /// What a message still arriving reserves at first: it grows as its bytes come, so a
    /// prefix alone cannot make the receiver allocate the whole announced length.
    static let initialReservation = 64 * 1024

    /// Feeds bytes; calls `emit` for each message completed by them, in order.
    public mutating func process(
        _ bytes: UnsafeRawBufferPointer, _ emit: ([UInt8]) -> Void
    ) throws(Failure) {
        var offset = 0
        let count = bytes.count
        while offset < count {
            if var partial = body {
                body = nil
                let take = min(bodyLength - partial.count, count - offset)
                partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
                offset += take
                if partial.count == bodyLength { emit(partial) } else { body = partial }
                continue
            }
            // Fast path: a whole prefix is in hand and nothing is pending.
            if prefixCount == 0, count - offset >= 5 {
                flags = bytes[offset]
                bodyLength =
                    Int(bytes[offset + 1]) << 24 | Int(bytes[offset + 2]) << 16
                    | Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
                offset += 5
                prefixCount = 5
            } else {
                while prefixCount < 5, offset < count {
                    let byte = bytes[offset]
                    if prefixCount == 0 {
                        flags = byte; bodyLength = 0
                    } else {
                        bodyLength = bodyLength << 8 | Int(byte)
                    }
                    prefixCount += 1
                    offset += 1
                }
                if prefixCount < 5 { return }
            }
            prefixCount = 0
            try checkPrefix()
            let available = count - offset
            if available >= bodyLength {
                emit(Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + bodyLength])))
                offset += bodyLength
            } else {
                var partial: [UInt8] = []
                partial.reserveCapacity(min(bodyLength, Self.initialReservation))
                partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<count]))
                offset = count
                body = partial
            }
        }
    }

    /// Feeds bytes held in an array (tests, the in-process transport).
    public mutating func process(_ bytes: [UInt8], _ emit: ([UInt8]) -> Void) throws(Failure) {
        var failure: Failure?
        bytes.withUnsafeBytes { raw in
            do throws(Failure) { try process(raw, emit) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Call at end of stream: fails if a message was cut short.
    public func finish() throws(Failure) {
        if hasPartialMessage { throw .truncated }
    }

    private func checkPrefix() throws(Failure) {
        switch flags {
        case 0: break
        case 1: throw .compressedWithoutEncoding
        default: throw .invalidFlags(flags)
        }
        if bodyLength > maxMessageSize { throw .messageTooLarge(length: bodyLength, limit: maxMessageSize) }
    }
}

/// The 5-byte prefix that goes before each message on the wire.
public enum MessagePrefix {
    public static let size = 5

    @inlinable
    public static func bytes(length: Int) -> (UInt8, UInt8, UInt8, UInt8, UInt8) {
        (
            0, UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
            UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)
        )
    }

    /// A message with its prefix, as one array.
    public static func framed(_ message: [UInt8]) -> [UInt8] {
        let p = bytes(length: message.count)
        var out: [UInt8] = [p.0, p.1, p.2, p.3, p.4]
        out.append(contentsOf: message)
        return out
    }
}
