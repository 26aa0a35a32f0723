import HeapModule

/// Time-ordered wake-ups of placements, with lazy invalidation: rescheduling pushes a new
/// item and leaves the old one to be skipped when it surfaces. Finding the next due work
/// is O(log n); nothing ever scans all placements.
///
/// Invariants: an item is live iff its generation equals its placement's current
/// generation; each placement has at most one live item; stale items are dropped when
/// they reach the top or when `compact` rebuilds the heap (once they outnumber live ones).
struct WakeQueue {
    struct Item: Comparable {
        var time: Seconds
        var slot: UInt32
        var generation: UInt32

        static func < (a: Item, b: Item) -> Bool {
            a.time < b.time || (a.time == b.time && a.slot < b.slot)
        }
        static func == (a: Item, b: Item) -> Bool {
            a.time == b.time && a.slot == b.slot && a.generation == b.generation
        }
    }

    private var heap = Heap<Item>()

    var count: Int { heap.count }

    mutating func push(_ item: Item) { heap.insert(item) }

    /// The earliest live item, dropping stale ones on the way.
    mutating func peek(in records: ContiguousArray<PlacementRecord>) -> Item? {
        while let top = heap.min {
            if Self.isLive(top, in: records) { return top }
            heap.removeMin()
        }
        return nil
    }

    static func isLive(_ item: Item, in records: ContiguousArray<PlacementRecord>) -> Bool {
        let record = records[Int(item.slot)]
        return record.live && record.generation == item.generation
    }

    mutating func popMin() { heap.removeMin() }

    /// Rebuilds the heap from its live items when stale ones dominate (amortized O(1) per push).
    mutating func compactIfNeeded(in records: ContiguousArray<PlacementRecord>, liveCount: Int) {
        guard heap.count > 2 * liveCount + 1024 else { return }
        heap = Heap(heap.unordered.filter { Self.isLive($0, in: records) })
    }
}
