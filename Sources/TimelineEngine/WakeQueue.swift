/// Time-ordered wake-ups of placements: a 4-ary min-heap with lazy invalidation.
/// Rescheduling pushes a new item and leaves the old one to be skipped when it surfaces,
/// so finding the next due work is O(log n) and nothing ever scans all placements.
/// (Four children per node keep a sift within few cache lines: 4 × 16-byte items = 64 B.)
///
/// Invariants: `items[i] >= items[(i - 1) / 4]`; an item is live iff its generation
/// equals its placement's current generation and the placement is live; each placement
/// has at most one live item; stale items are dropped when they reach the top, or all at
/// once by `compactIfNeeded` when they outnumber live ones.
struct WakeQueue {
    struct Item {
        var time: Seconds
        var slot: UInt32
        var generation: UInt32

        /// Ties break by slot so equal deadlines fire in a stable order.
        @inline(__always)
        static func precedes(_ a: Item, _ b: Item) -> Bool {
            a.time < b.time || (a.time == b.time && a.slot < b.slot)
        }
    }

    private var items: ContiguousArray<Item> = []

    var count: Int { items.count }

    mutating func push(_ item: Item) {
        items.append(item)
        siftUp(items.count - 1)
    }

    /// The earliest live item, dropping stale ones on the way.
    mutating func peek(in records: ContiguousArray<PlacementRecord>) -> Item? {
        while let top = items.first {
            if Self.isLive(top, in: records) { return top }
            popMin()
        }
        return nil
    }

    @inline(__always)
    static func isLive(_ item: Item, in records: ContiguousArray<PlacementRecord>) -> Bool {
        records[Int(item.slot)].generation == item.generation && records[Int(item.slot)].live
    }

    mutating func popMin() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        siftDown(0)
    }

    /// Rebuilds the heap from its live items when stale ones dominate (amortized O(1) per push).
    mutating func compactIfNeeded(in records: ContiguousArray<PlacementRecord>, liveCount: Int) {
        guard items.count > 2 * liveCount + 1024 else { return }
        items = items.filter { Self.isLive($0, in: records) }
        for i in stride(from: (items.count - 2) / 4, through: 0, by: -1) { siftDown(i) }
    }

    private mutating func siftUp(_ start: Int) {
        items.withUnsafeMutableBufferPointer { heap in
            var i = start
            let item = heap[i]
            while i > 0 {
                let parent = (i - 1) / 4
                guard Item.precedes(item, heap[parent]) else { break }
                heap[i] = heap[parent]
                i = parent
            }
            heap[i] = item
        }
    }

    private mutating func siftDown(_ start: Int) {
        items.withUnsafeMutableBufferPointer { heap in
            let count = heap.count
            var i = start
            let item = heap[i]
            while true {
                let first = 4 * i + 1
                guard first < count else { break }
                var best = first
                for child in (first + 1)..<min(first + 4, count) where Item.precedes(heap[child], heap[best]) {
                    best = child
                }
                guard Item.precedes(heap[best], item) else { break }
                heap[i] = heap[best]
                i = best
            }
            heap[i] = item
        }
    }
}
