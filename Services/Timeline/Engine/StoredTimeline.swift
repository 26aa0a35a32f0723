#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseVocabulary

/// Seconds since the reference date: the scheduler's internal time, cheaper than `Date`.
typealias Seconds = Double

/// A timeline as the scheduler keeps it: sorted by date and packed into one allocation —
/// the entry headers, then every entry's content bytes — so a placement's timeline costs
/// one heap object and one cache-missing pointer hop, however many entries it has.
/// Immutable once made, so safe to share across threads (see `TimelineScheduler.timelines`).
///
/// Invariants: entry headers are sorted by date (stable for equal dates); entry i's
/// content is bytes `[contentEnd(i-1), contentEnd(i))` of the content region; `urls` is
/// nil unless some entry has a URL.
final class StoredTimeline: ManagedBuffer<StoredTimeline.Info, UInt64> {
    struct Info {
        var count: Int
        var contentBytes: Int
        var policy: ReloadPolicy
        var urls: ContiguousArray<String?>?
    }

    struct EntryHeader {
        var date: Seconds
        /// NaN when the entry has no relevance.
        var relevanceDuration: Double
        var relevanceScore: Float
        var contentEnd: UInt32
    }

    private static let headerStride = MemoryLayout<EntryHeader>.stride

    /// Packs `timeline`, or says which cap it breaks.
    static func make(_ timeline: Timeline, maxEntries: Int, maxBytes: Int) throws(TimelineRejection) -> StoredTimeline {
        if let rejection = timeline.capViolation(maxEntries: maxEntries, maxBytes: maxBytes) { throw rejection }
        let count = timeline.entries.count

        // Stable sort: equal dates keep the provider's order, so the later one wins at that date.
        let inOrder = zip(timeline.entries, timeline.entries.dropFirst()).allSatisfy { $0.date <= $1.date }
        let sorted =
            inOrder
            ? timeline.entries
            : timeline.entries.enumerated().sorted {
                ($0.element.date, $0.offset) < ($1.element.date, $1.offset)
            }.map(\.element)
        let contentBytes = sorted.reduce(0) { $0 + $1.content.count }
        let urls = sorted.contains { $0.url != nil } ? ContiguousArray(sorted.map(\.url)) : nil
        let words = (count * headerStride + contentBytes + 7) / 8
        let buffer = unsafeDowncast(
            create(minimumCapacity: words) { _ in
                Info(count: count, contentBytes: contentBytes, policy: timeline.policy, urls: urls)
            },
            to: StoredTimeline.self)
        buffer.withUnsafeMutablePointerToElements { words in
            let raw = UnsafeMutableRawPointer(words)
            let content = raw + count * headerStride
            var end = 0
            for (i, entry) in sorted.enumerated() {
                entry.content.withUnsafeBytes { source in
                    if let base = source.baseAddress { (content + end).copyMemory(from: base, byteCount: source.count) }
                }
                end += entry.content.count
                raw.storeBytes(
                    of: EntryHeader(
                        date: entry.date.timeIntervalSinceReferenceDate,
                        relevanceDuration: entry.relevance?.duration ?? .nan,
                        relevanceScore: entry.relevance?.score ?? 0,
                        contentEnd: UInt32(end)),
                    toByteOffset: i * headerStride, as: EntryHeader.self)
            }
        }
        return buffer
    }

    var count: Int { header.count }
    var policy: ReloadPolicy { header.policy }

    /// Content and URL bytes, as counted against the size cap.
    var byteCount: Int { header.contentBytes + (header.urls?.reduce(0) { $0 + ($1?.utf8.count ?? 0) } ?? 0) }

    @inline(__always)
    func entryHeader(_ index: Int) -> EntryHeader {
        precondition(index >= 0 && index < header.count, "entry index out of range")
        return withUnsafeMutablePointerToElements {
            UnsafeRawPointer($0).load(fromByteOffset: index * Self.headerStride, as: EntryHeader.self)
        }
    }

    /// Entry `index`'s content bytes, viewed in place.
    func withContent<R>(of index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let start = index == 0 ? 0 : Int(entryHeader(index - 1).contentEnd)
        let end = Int(entryHeader(index).contentEnd)
        return withUnsafeMutablePointerToElements {
            body(
                UnsafeRawBufferPointer(
                    start: UnsafeRawPointer($0) + header.count * Self.headerStride + start, count: end - start))
        }
    }

    func date(at index: Int) -> Seconds { entryHeader(index).date }

    /// The date of the entry after `index` (-1: the placeholder), or `.infinity`.
    func date(after index: Int) -> Seconds { index + 1 < header.count ? entryHeader(index + 1).date : .infinity }

    /// Index of the latest entry whose date ≤ t, or nil before the first (placeholder).
    func index(at t: Seconds) -> Int? {
        var low = 0, high = header.count  // first index with date > t
        while low < high {
            let mid = (low + high) / 2
            if entryHeader(mid).date <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The entry at `index`, unpacked.
    func entry(at index: Int) -> TimelineEntry {
        let h = entryHeader(index)
        let relevance =
            h.relevanceDuration.isNaN ? nil : EntryRelevance(score: h.relevanceScore, duration: h.relevanceDuration)
        return TimelineEntry(
            date: Date(timeIntervalSinceReferenceDate: h.date),
            relevance: relevance,
            content: withContent(of: index) { Array($0) },
            url: header.urls?[index] ?? nil)
    }

    /// Whether entry `index` equals entry `other` of `timeline` (date, relevance, content, URL).
    func sameEntry(_ index: Int, as timeline: StoredTimeline, _ other: Int) -> Bool {
        let a = entryHeader(index), b = timeline.entryHeader(other)
        guard a.date == b.date, a.relevanceScore == b.relevanceScore,
            a.relevanceDuration == b.relevanceDuration || (a.relevanceDuration.isNaN && b.relevanceDuration.isNaN),
            (header.urls?[index] ?? nil) == (timeline.header.urls?[other] ?? nil)
        else { return false }
        return withContent(of: index) { mine in timeline.withContent(of: other) { mine.elementsEqual($0) } }
    }

    /// The entry's relevance score at t, or nil when it has none or its duration has passed.
    func relevanceScore(at index: Int, time t: Seconds) -> Float? {
        let h = entryHeader(index)
        guard !h.relevanceDuration.isNaN else { return nil }
        if h.relevanceDuration > 0, t > h.date + h.relevanceDuration { return nil }
        return h.relevanceScore
    }

    /// When the policy wants the next timeline; `.infinity` for `.never`.
    func policyDue(receivedAt now: Seconds) -> Seconds {
        switch header.policy {
        case .atEnd: header.count > 0 ? entryHeader(header.count - 1).date : now
        case .after(let date): date.timeIntervalSinceReferenceDate
        case .never: .infinity
        }
    }

    var timeline: Timeline {
        Timeline(entries: (0..<count).map(entry(at:)), policy: policy)
    }
}
