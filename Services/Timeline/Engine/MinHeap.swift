import GlimpseVocabulary
/// A 4-ary min-heap of wake-up items, ordered by time. Four children per node keep a
/// sift within few cache lines (4 × 16-byte items = 64 B).
///
/// Invariant: `items[i].time >= items[(i - 1) / 4].time`.
struct MinHeap: Codable {
    private(set) var items: ContiguousArray<WakeQueue.Item> = []

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
    var min: WakeQueue.Item? { items.first }

    mutating func push(_ item: WakeQueue.Item) {
        items.append(item)
        siftUp(items.count - 1)
    }

    mutating func popMin() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        siftDown(0)
    }

    /// Replaces the top item: one sift instead of a pop and a push.
    mutating func replaceMin(with item: WakeQueue.Item) {
        items[0] = item
        siftDown(0)
    }

    /// Calls `body` with every item whose time is ≤ `t`, in no order: a node later than `t`
    /// has only later items below it, so the walk stops there (O(k) for k such items).
    func forEach(dueBy t: Seconds, _ body: (WakeQueue.Item) -> Void) {
        items.withUnsafeBufferPointer { heap in
            func visit(_ i: Int) {
                guard i < heap.count, heap[i].time <= t else { return }
                body(heap[i])
                for child in 1...4 { visit(4 * i + child) }
            }
            visit(0)
        }
    }

    /// Adds many items at once, restoring the invariant in O(n).
    mutating func append(contentsOf batch: some Collection<WakeQueue.Item>) {
        guard !batch.isEmpty else { return }
        items.append(contentsOf: batch)
        for i in stride(from: (items.count - 2) / 4, through: 0, by: -1) { siftDown(i) }
    }

    /// Keeps only the items `keep` accepts.
    mutating func filter(_ keep: (WakeQueue.Item) -> Bool) {
        let kept = items.filter(keep)
        items = []
        append(contentsOf: kept)
    }

    private mutating func siftUp(_ start: Int) {
        items.withUnsafeMutableBufferPointer { heap in
            var i = start
            let item = heap[i]
            while i > 0 {
                let parent = (i - 1) / 4
                guard item.time < heap[parent].time else { break }
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
                var bestTime = heap[first].time
                for child in (first + 1)..<Swift.min(first + 4, count) {
                    let time = heap[child].time
                    if time < bestTime { best = child; bestTime = time }
                }
                guard bestTime < item.time else { break }
                heap[i] = heap[best]
                i = best
            }
            heap[i] = item
        }
    }
}
