#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseVocabulary

/// Seconds since the reference date: the scheduler's internal time, cheaper than `Date`.
typealias Seconds = Double

/// A timeline as the scheduler keeps it: sorted by date and packed into one allocation —
/// 12 bytes per entry (its date and where its content ends), 16 per entry that has a
/// relevance (its index, score and duration), then every entry's content bytes — so a
/// placement's timeline costs one heap object and one cache-missing pointer hop, however
/// many entries it has. Immutable once made, so safe to share across threads (see
/// `TimelineScheduler.timelines`).
///
/// Invariants: entry dates are sorted (stable for equal dates); entry i's content is bytes
/// `[contentEnd(i-1), contentEnd(i))` of the content region; the relevance records are in
/// entry order; `urls` is nil unless some entry has a URL.
final class StoredTimeline: ManagedBuffer<StoredTimeline.Info, UInt64> {
    /// In this order the fields pack into 32 bytes (the policy's 9, three Int32, a pointer).
    struct Info {
        var policy: ReloadPolicy
        var count: Int32
        /// Entries that have a relevance.
        var relevanceCount: Int32
        /// At most the timeline byte cap (10 MB by default).
        var contentBytes: Int32
        var urls: ContiguousArray<String?>?
    }

    /// An entry's fixed part: its date (8 bytes, unaligned) and the end of its content (4).
    private static let headerStride = 12
    /// A relevance record: the entry's index (4), its score (4) and duration (8).
    private static let relevanceStride = 16

    /// Packs `timeline`, or says which cap it breaks. The entries are read in place (two
    /// passes over a buffer, no copy of an entry), since a provider's answer is the hottest
    /// input the engine has.
    static func make(_ timeline: Timeline, maxEntries: Int, maxBytes: Int) throws(TimelineRejection) -> StoredTimeline {
        if let rejection = timeline.capViolation(maxEntries: maxEntries, maxBytes: maxBytes) { throw rejection }
        // Stable sort: equal dates keep the provider's order, so the later one wins at that date.
        let survey = Survey(timeline.entries)
        let sorted =
            survey.inOrder
            ? timeline.entries
            : timeline.entries.enumerated().sorted {
                ($0.element.date, $0.offset) < ($1.element.date, $1.offset)
            }.map(\.element)
        let count = sorted.count
        let urls = survey.hasURL ? ContiguousArray(sorted.map(\.url)) : nil
        let words = (count * headerStride + survey.relevances * relevanceStride + survey.contentBytes + 7) / 8
        let buffer = unsafeDowncast(
            create(minimumCapacity: words) { _ in
                Info(
                    policy: timeline.policy, count: Int32(count), relevanceCount: Int32(survey.relevances),
                    contentBytes: Int32(survey.contentBytes), urls: urls)
            },
            to: StoredTimeline.self)
        buffer.withUnsafeMutablePointerToElements { words in
            let raw = UnsafeMutableRawPointer(words)
            let table = raw + count * headerStride
            let content = table + survey.relevances * relevanceStride
            var (end, record) = (0, 0)
            sorted.withUnsafeBufferPointer { entries in
                for i in entries.indices {
                    if let relevance = entries[i].relevance {
                        table.storeBytes(of: UInt32(i), toByteOffset: record * relevanceStride, as: UInt32.self)
                        table.storeBytes(
                            of: relevance.score, toByteOffset: record * relevanceStride + 4, as: Float.self)
                        table.storeBytes(
                            of: relevance.duration, toByteOffset: record * relevanceStride + 8, as: Double.self)
                        record += 1
                    }
                    entries[i].content.withUnsafeBytes { source in
                        if let base = source.baseAddress {
                            (content + end).copyMemory(from: base, byteCount: source.count)
                        }
                        end += source.count
                    }
                    raw.storeBytes(
                        of: entries[i].date.timeIntervalSinceReferenceDate, toByteOffset: i * headerStride,
                        as: Seconds.self)
                    raw.storeBytes(of: UInt32(end), toByteOffset: i * headerStride + 8, as: UInt32.self)
                }
            }
        }
        return buffer
    }

    /// What packing needs to know of a provider's entries, in one pass.
    private struct Survey {
        var inOrder = true
        var hasURL = false
        var relevances = 0
        var contentBytes = 0

        init(_ entries: [TimelineEntry]) {
            entries.withUnsafeBufferPointer { entries in
                for i in entries.indices {
                    if i > 0, !(entries[i - 1].date <= entries[i].date) { inOrder = false }
                    if entries[i].url != nil { hasURL = true }
                    if entries[i].relevance != nil { relevances += 1 }
                    contentBytes += entries[i].content.count
                }
            }
        }
    }

    var count: Int { Int(header.count) }
    var policy: ReloadPolicy { header.policy }

    /// Content and URL bytes, as counted against the size cap.
    var byteCount: Int { Int(header.contentBytes) + (header.urls?.reduce(0) { $0 + ($1?.utf8.count ?? 0) } ?? 0) }

    /// Entry `index`'s date.
    @inline(__always)
    func date(at index: Int) -> Seconds {
        precondition(index >= 0 && index < count, "entry index out of range")
        return withUnsafeMutablePointerToElements {
            UnsafeRawPointer($0).loadUnaligned(fromByteOffset: index * Self.headerStride, as: Seconds.self)
        }
    }

    /// Where entry `index`'s content ends in the content region.
    @inline(__always)
    private func contentEnd(_ index: Int) -> Int {
        precondition(index >= 0 && index < count, "entry index out of range")
        return withUnsafeMutablePointerToElements {
            Int(UnsafeRawPointer($0).loadUnaligned(fromByteOffset: index * Self.headerStride + 8, as: UInt32.self))
        }
    }

    /// Entry `index`'s relevance, if it has one (a binary search of the relevance records).
    func relevance(at index: Int) -> EntryRelevance? {
        let records = Int(header.relevanceCount)
        guard records > 0 else { return nil }
        return withUnsafeMutablePointerToElements { words in
            let table = UnsafeRawPointer(words) + count * Self.headerStride
            var low = 0, high = records
            while low < high {
                let mid = (low + high) / 2
                let found = Int(table.loadUnaligned(fromByteOffset: mid * Self.relevanceStride, as: UInt32.self))
                if found == index {
                    return EntryRelevance(
                        score: table.loadUnaligned(fromByteOffset: mid * Self.relevanceStride + 4, as: Float.self),
                        duration: table.loadUnaligned(fromByteOffset: mid * Self.relevanceStride + 8, as: Double.self))
                }
                if found < index { low = mid + 1 } else { high = mid }
            }
            return nil
        }
    }

    /// Entry `index`'s content bytes, viewed in place.
    func withContent<R>(of index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let start = index == 0 ? 0 : contentEnd(index - 1)
        let end = contentEnd(index)
        return withUnsafeMutablePointerToElements {
            body(
                UnsafeRawBufferPointer(
                    start: UnsafeRawPointer($0) + count * Self.headerStride + Int(header.relevanceCount)
                        * Self.relevanceStride + start, count: end - start))
        }
    }

    /// The date of the entry after `index` (-1: the placeholder), or `.infinity`.
    func date(after index: Int) -> Seconds { index + 1 < count ? date(at: index + 1) : .infinity }

    /// Index of the latest entry whose date ≤ t, or nil before the first (placeholder).
    func index(at t: Seconds) -> Int? {
        var low = 0, high = count  // first index with date > t
        while low < high {
            let mid = (low + high) / 2
            if date(at: mid) <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The entry at `index`, unpacked.
    func entry(at index: Int) -> TimelineEntry {
        TimelineEntry(
            date: Date(timeIntervalSinceReferenceDate: date(at: index)),
            relevance: relevance(at: index),
            content: withContent(of: index) { Array($0) },
            url: header.urls?[index] ?? nil)
    }

    /// Whether entry `index` equals entry `other` of `timeline` (date, relevance, content, URL).
    func sameEntry(_ index: Int, as timeline: StoredTimeline, _ other: Int) -> Bool {
        guard date(at: index) == timeline.date(at: other),
            relevance(at: index) == timeline.relevance(at: other),
            (header.urls?[index] ?? nil) == (timeline.header.urls?[other] ?? nil)
        else { return false }
        return withContent(of: index) { mine in timeline.withContent(of: other) { mine.elementsEqual($0) } }
    }

    /// The entry's relevance score at t, or nil when it has none or its duration has passed.
    func relevanceScore(at index: Int, time t: Seconds) -> Float? {
        guard let relevance = relevance(at: index) else { return nil }
        if relevance.duration > 0, t > date(at: index) + relevance.duration { return nil }
        return relevance.score
    }

    /// When the policy wants the next timeline; `.infinity` for `.never`.
    func policyDue(receivedAt now: Seconds) -> Seconds {
        switch header.policy {
        case .atEnd: count > 0 ? date(at: count - 1) : now
        case .after(let date): date.timeIntervalSinceReferenceDate
        case .never: .infinity
        }
    }

    var timeline: Timeline {
        Timeline(entries: (0..<count).map(entry(at:)), policy: policy)
    }
}

/// One entry of a stored timeline, named rather than copied: an entry change carries this,
/// and its content is unpacked only by whoever reads it (a million placements change tens
/// of millions of entries a day; copying each entry's bytes into an array cost more than
/// the rest of the change). Equal when the entries are: date, relevance, content and URL.
package struct ShownEntry: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// Immutable once made (see `StoredTimeline`), so sharing it across threads is safe.
    let timeline: StoredTimeline
    let index: Int

    init(_ timeline: StoredTimeline, _ index: Int) {
        precondition(index >= 0 && index < timeline.count, "entry index out of range")
        self.timeline = timeline
        self.index = index
    }

    /// The entry, unpacked.
    package var entry: TimelineEntry { timeline.entry(at: index) }

    /// The entry's content bytes, viewed in place.
    package func withContent<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        timeline.withContent(of: index, body)
    }

    package static func == (a: ShownEntry, b: ShownEntry) -> Bool {
        a.timeline.sameEntry(a.index, as: b.timeline, b.index)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(timeline.date(at: index))
        withContent { hasher.combine(bytes: $0) }
    }

    package var description: String { String(describing: entry) }
}
