import RPCCore

/// The messages a stream has queued for sending, framed lazily: the 5-byte prefix and the
/// payload are copied straight into nghttp2's frame buffer, with no intermediate buffer.
///
/// Invariants: `offset` is how many bytes of the first message's framed form
/// (prefix + payload) were already copied; `count` is the framed bytes still to copy.
struct OutboundMessages {
    private var messages: [[UInt8]] = []
    private var head = 0
    private var offset = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ message: [UInt8]) {
        messages.append(message)
        count += message.count + MessagePrefix.size
    }

    /// Copies up to `capacity` framed bytes to `destination`; returns how many.
    mutating func copy(into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int {
        var written = 0
        while written < capacity, head < messages.count {
            let message = messages[head]
            if offset < MessagePrefix.size {
                let prefix = MessagePrefix.bytes(length: message.count)
                withUnsafeBytes(of: prefix) { prefix in
                    while offset < MessagePrefix.size, written < capacity {
                        destination[written] = prefix[offset]
                        written += 1
                        offset += 1
                    }
                }
            }
            let bodyOffset = offset - MessagePrefix.size
            let take = min(message.count - bodyOffset, capacity - written)
            if take > 0 {
                message.withUnsafeBufferPointer { body in
                    (destination + written).update(from: body.baseAddress! + bodyOffset, count: take)
                }
                written += take
                offset += take
            }
            if offset == message.count + MessagePrefix.size {
                head += 1
                offset = 0
            }
        }
        if head == messages.count {
            messages.removeAll(keepingCapacity: true)
            head = 0
        }
        count -= written
        return written
    }

    mutating func removeAll() {
        messages.removeAll()
        head = 0
        offset = 0
        count = 0
    }
}
