/// The streams of a connection by id: an open-addressing table with linear probing and a
/// multiplicative (Fibonacci) hash of the id. nghttp2 calls back several times for every
/// stream (headers, data, frame end, close), and `Dictionary` hashed each id with SipHash:
/// with its lookups, insertions and deletions that was about 2.5% of the event loop.
/// The load stays at most one half, and a connection holds at most its
/// `maxConcurrentStreams` (plus closed ones being answered), so probe runs stay short.
///
/// Invariants:
/// - `keys[i] == 0` marks an empty slot (stream ids are positive), and then `streams[i]`
///   is nil; otherwise `streams[i]` holds the stream with id `keys[i]`.
/// - Every stored key is reachable from its home slot without crossing an empty slot
///   (removal shifts later entries back to keep this).
/// - `count * 2 <= capacity`.
/// Owned by one event loop, like the handler that keeps it; its state skips the dynamic
/// exclusivity checks (simple accesses on one thread that never overlap).
package final class StreamTable<Stream: AnyObject> {
    @exclusivity(unchecked) private var keys: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var streams: UnsafeMutablePointer<Stream?>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var shift: UInt32
    @exclusivity(unchecked) package private(set) var count = 0

    package init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        self.capacity = size
        self.shift = UInt32(32 - size.trailingZeroBitCount)
        keys = .allocate(capacity: size)
        keys.initialize(repeating: 0, count: size)
        streams = .allocate(capacity: size)
        streams.initialize(repeating: nil, count: size)
    }

    deinit {
        streams.deinitialize(count: capacity)
        streams.deallocate()
        keys.deallocate()
    }

    package var isEmpty: Bool { count == 0 }

    /// Every stream, in no particular order.
    package var values: [Stream] {
        var all: [Stream] = []
        all.reserveCapacity(count)
        for i in 0..<capacity where keys[i] != 0 { all.append(streams[i]!) }
        return all
    }

    package subscript(id: Int32) -> Stream? {
        get {
            guard let slot = slot(of: id) else { return nil }
            return streams[slot]
        }
        set {
            if let newValue { insert(newValue, for: id) } else { removeValue(forKey: id) }
        }
    }

    @discardableResult
    package func removeValue(forKey id: Int32) -> Stream? {
        guard var hole = slot(of: id) else { return nil }
        let removed = streams[hole].take()
        keys[hole] = 0
        count -= 1
        // Shift back the entries after the hole that could not sit in their home slot.
        let mask = capacity - 1
        var next = (hole + 1) & mask
        while keys[next] != 0 {
            let home = self.home(keys[next])
            // `next` may move into `hole` if its home is not in the cyclic range (hole, next].
            let homeAfterHole = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !homeAfterHole {
                keys[hole] = keys[next]
                streams[hole] = streams[next].take()
                keys[next] = 0
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    package func removeAll() {
        for i in 0..<capacity where keys[i] != 0 {
            keys[i] = 0
            streams[i] = nil
        }
        count = 0
    }

    // MARK: Slots

    private func home(_ id: Int32) -> Int {
        Int((UInt32(bitPattern: id) &* 0x9E37_79B9) >> shift)
    }

    private func slot(of id: Int32) -> Int? {
        guard id > 0 else { return nil }
        let mask = capacity - 1
        var i = home(id)
        while true {
            let key = keys[i]
            if key == id { return i }
            if key == 0 { return nil }
            i = (i + 1) & mask
        }
    }

    private func insert(_ stream: Stream, for id: Int32) {
        precondition(id > 0, "stream ids are positive")
        if let slot = slot(of: id) {
            streams[slot] = stream
            return
        }
        if (count + 1) * 2 > capacity { grow() }
        let mask = capacity - 1
        var i = home(id)
        while keys[i] != 0 { i = (i + 1) & mask }
        keys[i] = id
        streams[i] = stream
        count += 1
    }

    private func grow() {
        let oldKeys = keys, oldStreams = streams, oldCapacity = capacity
        capacity *= 2
        shift -= 1
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: 0, count: capacity)
        streams = .allocate(capacity: capacity)
        streams.initialize(repeating: nil, count: capacity)
        count = 0
        for i in 0..<oldCapacity where oldKeys[i] != 0 {
            let mask = capacity - 1
            var j = home(oldKeys[i])
            while keys[j] != 0 { j = (j + 1) & mask }
            keys[j] = oldKeys[i]
            streams[j] = oldStreams[i].take()
            count += 1
        }
        oldStreams.deinitialize(count: oldCapacity)
        oldStreams.deallocate()
        oldKeys.deallocate()
    }
}
