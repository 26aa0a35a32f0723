import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("The wake-up queue (calendar queue)")
struct WakeQueueTests {
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Double) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * bound
        }
    }

    static func records(_ count: Int) -> ContiguousArray<PlacementRecord> {
        ContiguousArray(
            (0..<count).map {
                PlacementRecord(
                    id: PlacementID(UInt64($0)), kind: 0, app: 0, memberPosition: 0, family: .systemSmall,
                    screen: .homeScreen)
            })
    }

    /// Pops everything, pushing a later item for every third one on the way (as firing does).
    static func drain(
        _ queue: inout WakeQueue, _ records: inout ContiguousArray<PlacementRecord>, reschedule: Bool
    ) -> [Seconds] {
        var popped: [Seconds] = []
        var rng = Generator(state: 99)
        while let top = queue.peek(in: records) {
            popped.append(top.time)
            if reschedule, popped.count % 3 == 0, popped.count < 3000 {
                records[Int(top.slot)].generation &+= 1
                let later = top.time + rng.next(40_000)  // sometimes past the ring's horizon
                queue.replaceMin(
                    with: WakeQueue.Item(time: later, slot: top.slot, generation: records[Int(top.slot)].generation))
            } else {
                records[Int(top.slot)].generation &+= 1
                queue.popMin()
            }
        }
        return popped
    }

    @Test("the heap's walk of due items visits exactly the items due, at every cut")
    func dueWalk() {
        var rng = Generator(state: 7)
        var heap = MinHeap()
        for n in 0..<500 { heap.push(WakeQueue.Item(time: (rng.next(100)).rounded(), slot: UInt32(n), generation: 0)) }
        for cut in [-1.0, 0, 0.5, 3, 37, 50, 99.9, 100, 1_000] {
            var seen: [UInt32] = []
            heap.forEach(dueBy: cut) { seen.append($0.slot) }
            #expect(seen.sorted() == heap.items.filter { $0.time <= cut }.map(\.slot).sorted())
        }
    }

    @Test("items come out in time order: near, beyond the ring's horizon, in the past, and rescheduled on the way")
    func timeOrder() {
        var records = Self.records(2000)
        var queue = WakeQueue()
        var rng = Generator(state: 1)
        let base: Seconds = 800_000_000
        for slot in 0..<2000 {
            let time: Seconds =
                switch slot % 4 {
                case 0: base + rng.next(600)  // within minutes
                case 1: base + rng.next(3 * 86_400)  // up to three days: many beyond the ring
                case 2: base - rng.next(3600)  // already due
                default: base + Seconds(slot % 7)  // many equal deadlines
                }
            queue.push(WakeQueue.Item(time: time, slot: UInt32(slot), generation: 0))
        }
        let popped = Self.drain(&queue, &records, reschedule: true)
        #expect(popped.count == 2000 + 999)
        #expect(popped == popped.sorted())
        #expect(queue.count == 0)
    }

    @Test("stale items (their placement rescheduled or removed) are skipped")
    func staleSkipped() {
        var records = Self.records(10)
        var queue = WakeQueue()
        for slot in 0..<10 { queue.push(WakeQueue.Item(time: Seconds(100 + slot), slot: UInt32(slot), generation: 0)) }
        records[3].generation = 1  // rescheduled: its item is stale
        records[5].live = false  // removed
        queue.push(WakeQueue.Item(time: 50, slot: 3, generation: 1))
        let popped = Self.drain(&queue, &records, reschedule: false)
        #expect(popped == [50, 100, 101, 102, 104, 106, 107, 108, 109])
    }

    @Test("an item pushed earlier than the drained bucket still comes out first")
    func earlierThanCursor() {
        var records = Self.records(3)
        var queue = WakeQueue()
        queue.push(WakeQueue.Item(time: 10_000, slot: 0, generation: 0))
        #expect(queue.peek(in: records)?.time == 10_000)  // drains the bucket at 10,000
        queue.push(WakeQueue.Item(time: 10_000.5, slot: 1, generation: 0))
        queue.push(WakeQueue.Item(time: 20, slot: 2, generation: 0))
        #expect(Self.drain(&queue, &records, reschedule: false) == [20, 10_000, 10_000.5])
    }

    @Test("times too far out for bucket numbers (distant future) still order last")
    func distantFuture() {
        var records = Self.records(2)
        var queue = WakeQueue()
        queue.push(WakeQueue.Item(time: 1e300, slot: 0, generation: 0))
        queue.push(WakeQueue.Item(time: 5, slot: 1, generation: 0))
        #expect(Self.drain(&queue, &records, reschedule: false) == [5, 1e300])
    }
}
