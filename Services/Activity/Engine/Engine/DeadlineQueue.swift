#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HeapModule
import GlimpseJSON
import GlimpseVocabulary

/// The timers an activity can have; at most one of each is wanted at a time.
enum TimerKind: UInt8, Sendable, CaseIterable, Codable {
    case scheduledStart, stale, maximumDuration, dismissal, pushToken, deferredPush
}

/// One timer of one activity: when it is wanted (`due`) and which instant the queue
/// holds for it (`queued`). Invariant: `queued == nil || due == nil || queued <= due`,
/// so the queue never fires a timer late; firing early just re-queues it at `due`.
struct TimerSlot: Sendable, Hashable {
    var due: Date?
    var queued: Date?
}

/// An activity's six timer slots, stored inline (no heap allocation per activity):
/// each instant as seconds since the reference date, NaN for none.
struct ActivityTimers: Sendable, Codable {
    private struct Packed: Sendable, Codable {
        var due = Double.nan
        var queued = Double.nan
        var slot: TimerSlot {
            TimerSlot(
                due: due.isNaN ? nil : Date(timeIntervalSinceReferenceDate: due),
                queued: queued.isNaN ? nil : Date(timeIntervalSinceReferenceDate: queued))
        }
        init() {}
        init(_ slot: TimerSlot) {
            due = slot.due?.timeIntervalSinceReferenceDate ?? .nan
            queued = slot.queued?.timeIntervalSinceReferenceDate ?? .nan
        }
    }

    private var start = Packed(), stale = Packed(), maximum = Packed()
    private var dismissal = Packed(), token = Packed(), deferred = Packed()

    subscript(kind: TimerKind) -> TimerSlot {
        get {
            switch kind {
            case .scheduledStart: start.slot
            case .stale: stale.slot
            case .maximumDuration: maximum.slot
            case .dismissal: dismissal.slot
            case .pushToken: token.slot
            case .deferredPush: deferred.slot
            }
        }
        set {
            switch kind {
            case .scheduledStart: start = Packed(newValue)
            case .stale: stale = Packed(newValue)
            case .maximumDuration: maximum = Packed(newValue)
            case .dismissal: dismissal = Packed(newValue)
            case .pushToken: token = Packed(newValue)
            case .deferredPush: deferred = Packed(newValue)
            }
        }
    }
}

/// An O(log n) min-heap of (instant, activity, timer kind) with lazy invalidation.
///
/// Invariants:
/// - An entry is live only while the activity's slot for its kind still has
///   `queued == entry.at`; anything else is discarded when popped, so moving or
///   cancelling a timer costs nothing now.
/// - Moving a timer *later* adds no entry (the early one re-queues when it pops);
///   moving it *earlier* adds one. So pushes that keep extending a stale date do not
///   grow the heap; `compact(liveCount:)` is the backstop when it grows anyway.
/// - Equal instants pop in insertion order.
struct DeadlineQueue: Sendable {
    struct Entry: Comparable, Sendable, Codable {
        var at: Date
        var order: UInt64
        var id: ActivityID
        var kind: TimerKind
        static func < (a: Entry, b: Entry) -> Bool { a.at != b.at ? a.at < b.at : a.order < b.order }
        static func == (a: Entry, b: Entry) -> Bool { a.at == b.at && a.order == b.order }
    }

    private var heap = Heap<Entry>()
    private var order: UInt64 = 0

    var count: Int { heap.count }

    /// The earliest queued instant; never later than the next real deadline.
    var next: Date? { heap.min?.at }

    mutating func insert(_ id: ActivityID, _ kind: TimerKind, at: Date) {
        order &+= 1
        heap.insert(Entry(at: at, order: order, id: id, kind: kind))
    }

    /// Removes and returns the earliest entry due at or before `now`.
    mutating func popDue(now: Date) -> Entry? {
        guard let top = heap.min, top.at <= now else { return nil }
        return heap.removeMin()
    }

    /// Drops entries `isLive` rejects, rebuilding the heap in O(n).
    mutating func compact(isLive: (Entry) -> Bool) {
        heap = Heap(heap.unordered.filter(isLive))
    }
}

/// Saved as the heap's array as it is: building a heap from an array that already is one
/// moves nothing, so a restored queue pops (and compacts) exactly as the saved one.
extension DeadlineQueue: Codable {
    enum CodingKeys: String, CodingKey {
        case heap, order
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        heap = Heap(try container.decode([Entry].self, forKey: .heap))
        order = try container.decode(UInt64.self, forKey: .order)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(heap.unordered, forKey: .heap)
        try container.encode(order, forKey: .order)
    }
}
