#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Seconds since the reference date: the scheduler's internal time, cheaper than `Date`.
typealias Seconds = Double

/// A timeline as the scheduler keeps it: sorted by date, packed into two arrays (entry
/// headers and one byte buffer holding every entry's content), so a placement costs two
/// allocations however many entries it has.
///
/// Invariants: `headers` are sorted by date (stable for equal dates); entry i's content is
/// `bytes[start(i)..<headers[i].contentEnd]`; `urls` is nil unless some entry has a URL.
struct StoredTimeline {
    struct Header {
        var date: Seconds
        /// NaN when the entry has no relevance.
        var relevanceDuration: Double
        var relevanceScore: Float
        var contentEnd: UInt32
    }

    private(set) var headers: ContiguousArray<Header>
    private(set) var bytes: ContiguousArray<UInt8>
    private(set) var urls: ContiguousArray<String?>?
    let policy: ReloadPolicy

    /// Packs `timeline`, or says which cap it breaks.
    init(_ timeline: Timeline, maxEntries: Int, maxBytes: Int) throws(TimelineRejection) {
        let count = timeline.entries.count
        guard count <= maxEntries else { throw .tooManyEntries(count: count, limit: maxEntries) }
        let total = timeline.entries.reduce(0) { $0 + $1.byteCount }
        guard total <= maxBytes else { throw .tooManyBytes(count: total, limit: maxBytes) }

        // Stable sort: equal dates keep the provider's order, so the later one wins at that date.
        let sorted = timeline.entries.enumerated().sorted {
            ($0.element.date, $0.offset) < ($1.element.date, $1.offset)
        }.map(\.element)
        var headers = ContiguousArray<Header>()
        headers.reserveCapacity(count)
        var bytes = ContiguousArray<UInt8>()
        bytes.reserveCapacity(sorted.reduce(0) { $0 + $1.content.count })
        let anyURL = sorted.contains { $0.url != nil }
        for entry in sorted {
            bytes.append(contentsOf: entry.content)
            headers.append(Header(
                date: entry.date.timeIntervalSinceReferenceDate,
                relevanceDuration: entry.relevance?.duration ?? .nan,
                relevanceScore: entry.relevance?.score ?? 0,
                contentEnd: UInt32(bytes.count)))
        }
        self.headers = headers
        self.bytes = bytes
        self.urls = anyURL ? ContiguousArray(sorted.map(\.url)) : nil
        self.policy = timeline.policy
    }

    var count: Int { headers.count }

    func date(at index: Int) -> Seconds { headers[index].date }

    /// Index of the latest entry whose date ≤ t, or nil before the first (placeholder).
    func index(at t: Seconds) -> Int? {
        var low = 0, high = headers.count  // first index with date > t
        while low < high {
            let mid = (low + high) / 2
            if headers[mid].date <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The entry at `index`, unpacked.
    func entry(at index: Int) -> TimelineEntry {
        let header = headers[index]
        let start = index == 0 ? 0 : Int(headers[index - 1].contentEnd)
        let relevance = header.relevanceDuration.isNaN
            ? nil : EntryRelevance(score: header.relevanceScore, duration: header.relevanceDuration)
        return TimelineEntry(
            date: Date(timeIntervalSinceReferenceDate: header.date),
            relevance: relevance,
            content: Array(bytes[start..<Int(header.contentEnd)]),
            url: urls?[index] ?? nil)
    }

    /// The entry's relevance score at t, or nil when it has none or its duration has passed.
    func relevanceScore(at index: Int, time t: Seconds) -> Float? {
        let header = headers[index]
        guard !header.relevanceDuration.isNaN else { return nil }
        if header.relevanceDuration > 0, t > header.date + header.relevanceDuration { return nil }
        return header.relevanceScore
    }

    /// When the policy wants the next timeline; `.infinity` for `.never`.
    func policyDue(receivedAt now: Seconds) -> Seconds {
        switch policy {
        case .atEnd: headers.last?.date ?? now
        case .after(let date): date.timeIntervalSinceReferenceDate
        case .never: .infinity
        }
    }

    var timeline: Timeline {
        Timeline(entries: (0..<count).map(entry(at:)), policy: policy)
    }
}
