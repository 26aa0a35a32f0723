import GlimpseVocabulary
/// Time-ordered wake-ups of placements: a calendar queue with lazy invalidation.
///
/// The near future is a ring of one-second buckets (an O(1) append to schedule); the
/// bucket being drained becomes a small heap (`current`) that orders its items exactly;
/// wake-ups beyond the ring's horizon wait in a heap (`far`). Rescheduling adds a new item
/// and leaves the old one stale, to be skipped when it surfaces. Finding the next due
/// work costs O(log b) for b items in one bucket (plus a bitmap scan over empty
/// buckets); nothing ever scans all placements.
///
/// Invariants, with `cursor` the absolute index of the first bucket not yet drained:
/// - every item in `current` has bucket index < `cursor`; every ring item has an index in
///   [`cursor`, `cursor` + ring size) and sits in its bucket; every `far` item has an
///   index ≥ `cursor`. So `current`'s minimum, when there is one, is the global minimum.
/// - an item is live iff its generation equals its placement's current generation and the
///   placement is live; each placement has at most one live item.
struct WakeQueue {
    struct Item: Codable {
        var time: Seconds
        var slot: UInt32
        var generation: UInt32
    }

    static let bucketWidth: Seconds = 1
    static let ringBits = 14  // 16,384 one-second buckets: about 4.5 hours ahead
    static let ringSize = 1 << ringBits

    private var buckets: [ContiguousArray<Item>] = []
    /// One bit per bucket: set when it holds items.
    private var occupied: [UInt64] = []
    private var cursor: Int64 = .min
    private var current = MinHeap()
    private var far = MinHeap()
    private(set) var count = 0

    private static func bucket(of time: Seconds) -> Int64? {
        let index = (time / bucketWidth).rounded(.down)
        return abs(index) < 1e18 ? Int64(index) : nil
    }

    mutating func push(_ item: Item) {
        count += 1
        if cursor == .min { cursor = Self.bucket(of: item.time) ?? .min }
        guard let index = Self.bucket(of: item.time), cursor != .min else { far.push(item); return }
        if index < cursor {
            current.push(item)
        } else if index - cursor < Int64(Self.ringSize) {
            if buckets.isEmpty {
                buckets = Array(repeating: [], count: Self.ringSize)
                occupied = Array(repeating: 0, count: Self.ringSize / 64)
            }
            let slot = Int(index & Int64(Self.ringSize - 1))
            buckets[slot].append(item)
            occupied[slot >> 6] |= 1 << UInt64(slot & 63)
        } else {
            far.push(item)
        }
    }

    /// The earliest live item, dropping stale ones and draining buckets on the way.
    mutating func peek(in records: ContiguousArray<PlacementRecord>) -> Item? {
        while true {
            while let top = current.min {
                if Self.isLive(top, in: records) { return top }
                current.popMin()
                count -= 1
            }
            guard drainNextBucket() else { return nil }
        }
    }

    @inline(__always)
    static func isLive(_ item: Item, in records: ContiguousArray<PlacementRecord>) -> Bool {
        records[Int(item.slot)].generation == item.generation && records[Int(item.slot)].live
    }

    /// Calls `body` with the slot of every item in the drained bucket(s) due by `t`, in no
    /// order: lets the caller touch their memory up front, so the cache misses of a whole
    /// deadline's placements overlap instead of coming one at a time. Visits only the due
    /// items (and the children that end each branch), not the whole bucket.
    func forEachDrained(dueBy t: Seconds, _ body: (UInt32) -> Void) {
        current.forEach(dueBy: t) { body($0.slot) }
    }

    /// Removes the item `peek` returned.
    mutating func popMin() {
        current.popMin()
        count -= 1
    }

    /// Replaces the item `peek` returned with `item` (one sift when it stays in `current`).
    mutating func replaceMin(with item: Item) {
        if let index = Self.bucket(of: item.time), index < cursor {
            current.replaceMin(with: item)
        } else {
            popMin()
            push(item)
        }
    }

    /// Rebuilds from live items when stale ones dominate (amortized O(1) per push).
    mutating func compactIfNeeded(in records: ContiguousArray<PlacementRecord>, liveCount: Int) {
        guard count > 2 * liveCount + 1024 else { return }
        let live = { (item: Item) in Self.isLive(item, in: records) }
        current.filter(live)
        far.filter(live)
        count = current.count + far.count
        for slot in buckets.indices where !buckets[slot].isEmpty {
            buckets[slot].removeAll { !live($0) }
            count += buckets[slot].count
            if buckets[slot].isEmpty { occupied[slot >> 6] &= ~(1 << UInt64(slot & 63)) }
        }
    }

    /// Moves the earliest non-empty bucket (or the earliest far bucket, if sooner) into
    /// `current`; false when the queue is empty.
    private mutating func drainNextBucket() -> Bool {
        let ringIndex = nextOccupiedBucket()
        let farIndex = far.min.flatMap { Self.bucket(of: $0.time) }
        guard let next = [ringIndex, farIndex].compactMap({ $0 }).min() else {
            if let item = far.min { current.push(item); far.popMin(); return true }  // beyond Int64 buckets
            return false
        }
        if ringIndex == next {
            let slot = Int(next & Int64(Self.ringSize - 1))
            current.append(contentsOf: buckets[slot])
            buckets[slot] = []  // a drained bucket keeps no capacity: memory follows live items
            occupied[slot >> 6] &= ~(1 << UInt64(slot & 63))
        }
        while let item = far.min, let index = Self.bucket(of: item.time), index <= next {
            current.push(item)
            far.popMin()
        }
        cursor = next + 1
        return true
    }

    /// Absolute index of the first occupied ring bucket at or after `cursor`, if any.
    private func nextOccupiedBucket() -> Int64? {
        guard !occupied.isEmpty, cursor != .min else { return nil }
        let start = Int(cursor & Int64(Self.ringSize - 1))
        let words = occupied.count
        var word = start >> 6
        var bits = occupied[word] & (~0 << UInt64(start & 63))
        for step in 0...words {
            if bits != 0 {
                let slot = (word << 6) | bits.trailingZeroBitCount
                let distance = (slot - start + Self.ringSize) & (Self.ringSize - 1)
                return cursor + Int64(distance)
            }
            guard step < words else { break }
            word = (word + 1) % words
            bits = occupied[word]
            if word == start >> 6 { bits &= (1 << UInt64(start & 63)) &- 1 }  // wrapped: only slots before start
        }
        return nil
    }
}

/// Saved as it is, but for the ring's empty buckets (most of its 16,384 seconds): only the
/// buckets that hold items are written, with their place in the ring.
extension WakeQueue: Codable {
    enum CodingKeys: String, CodingKey {
        case ring, filled, occupied, cursor, current, far, count
    }

    struct Bucket: Codable {
        var slot: Int
        var items: ContiguousArray<Item>
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(Bool.self, forKey: .ring) {
            buckets = Array(repeating: [], count: Self.ringSize)
            for bucket in try container.decode([Bucket].self, forKey: .filled) {
                guard buckets.indices.contains(bucket.slot) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .filled, in: container, debugDescription: "bucket \(bucket.slot)")
                }
                buckets[bucket.slot] = bucket.items
            }
        } else {
            _ = try container.decode([Bucket].self, forKey: .filled)
        }
        occupied = try container.decode([UInt64].self, forKey: .occupied)
        cursor = try container.decode(Int64.self, forKey: .cursor)
        current = try container.decode(MinHeap.self, forKey: .current)
        far = try container.decode(MinHeap.self, forKey: .far)
        count = try container.decode(Int.self, forKey: .count)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(!buckets.isEmpty, forKey: .ring)
        try container.encode(
            buckets.indices.filter { !buckets[$0].isEmpty }.map { Bucket(slot: $0, items: buckets[$0]) },
            forKey: .filled)
        try container.encode(occupied, forKey: .occupied)
        try container.encode(cursor, forKey: .cursor)
        try container.encode(current, forKey: .current)
        try container.encode(far, forKey: .far)
        try container.encode(count, forKey: .count)
    }
}
