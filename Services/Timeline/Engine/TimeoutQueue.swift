import DequeModule
import GlimpseVocabulary

/// Provider-call timeouts, kept apart from the wake-up heap: every call times out a fixed
/// `providerTimeout` after dispatch and the clock never goes back, so deadlines arrive in
/// dispatch order and a FIFO holds them in order at O(1) per call.
///
/// Invariants: times are nondecreasing front to back; an item is live iff its placement
/// is live and still has that call in flight. Answered calls leave stale items that are
/// dropped when they reach the front.
struct TimeoutQueue: Codable {
    struct Item: Codable {
        var time: Seconds
        var slot: UInt32
        var sequence: UInt32
    }

    private var items = Deque<Item>()

    var count: Int { items.count }

    mutating func push(_ item: Item) {
        assert(items.last.map { $0.time <= item.time } ?? true, "timeouts must arrive in order")
        items.append(item)
    }

    /// The earliest live timeout, dropping stale ones on the way.
    mutating func peek(in records: ContiguousArray<PlacementRecord>) -> Item? {
        while let front = items.first {
            let record = records[Int(front.slot)]
            if record.live, record.isFetching, record.fetchSequence == front.sequence { return front }
            items.removeFirst()
        }
        return nil
    }

    mutating func popFirst() { items.removeFirst() }
}
