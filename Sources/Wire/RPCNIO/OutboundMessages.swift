import RPCCore

/// The messages a stream has queued for sending, framed lazily: the 5-byte prefix and the
/// payload are copied straight into nghttp2's frame buffer, with no intermediate buffer.
/// Unframed (`prefixSize` 0), the bytes go as they are: an HTTP/JSON response body.
///
/// Invariants: `current` is the message being copied (nil only when nothing is queued);
/// `offset` is how many bytes of its framed form (prefix + payload) were already copied;
/// the messages after it wait in `later[head...]`; `count` is the framed bytes still to
/// copy. A stream with one message at a time (most) never allocates the array.
struct OutboundMessages {
    private var current: [UInt8]?
    private var later: [[UInt8]] = []
    private var head = 0
    private var offset = 0
    private(set) var count = 0
    /// `MessagePrefix.size`, or 0 for raw bytes.
    let prefixSize: Int

    init(framed: Bool = true) {
        prefixSize = framed ? MessagePrefix.size : 0
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ message: [UInt8]) {
        if current == nil {
            current = message
        } else {
            later.append(message)
        }
        count += message.count + prefixSize
    }

    /// Copies up to `capacity` framed bytes to `destination`; returns how many.
    mutating func copy(into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int {
        let prefixSize = self.prefixSize
        var written = 0
        while written < capacity, let message = current {
            if offset < prefixSize {
                let prefix = MessagePrefix.bytes(length: message.count)
                withUnsafeBytes(of: prefix) { prefix in
                    while offset < MessagePrefix.size, written < capacity {
                        destination[written] = prefix[offset]
                        written += 1
                        offset += 1
                    }
                }
            }
            let bodyOffset = offset - prefixSize
            let take = min(message.count - bodyOffset, capacity - written)
            if take > 0 {
                message.withUnsafeBufferPointer { body in
                    (destination + written).update(from: body.baseAddress! + bodyOffset, count: take)
                }
                written += take
                offset += take
            }
            if offset == message.count + prefixSize {
                offset = 0
                current = nil
                if head < later.count {
                    current = later[head]
                    head += 1
                    if head == later.count {
                        later.removeAll(keepingCapacity: true)
                        head = 0
                    }
                }
            }
        }
        count -= written
        return written
    }

    mutating func removeAll() {
        current = nil
        later.removeAll()
        head = 0
        offset = 0
        count = 0
    }
}
