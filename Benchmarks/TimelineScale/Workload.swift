import Foundation
import GlimpseVocabulary
import TimelineEngine

/// A deterministic pseudo-random source (SplitMix64), so every run simulates the same day.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
}

/// The simulated installed base and its providers.
struct Workload {
    static let appCount = 1000
    static let kinds = ["Glance", "Detail"]
    static let families: [WidgetFamily] = [
        .systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline,
    ]
    static func app(_ i: Int) -> AppID { AppID("com.bench.app\(i)") }

    /// Every placement's provider policy mix: 40% atEnd, 30% after(15–120 min), 5% after(5 min)
    /// (wanting 288 reloads a day: the budget defers them), 25% never.
    enum PolicyKind { case atEnd, after, eager, never }
    static func policyKind(of id: PlacementID) -> PolicyKind {
        switch id.rawValue % 20 {
        case 0..<8: .atEnd
        case 8..<14: .after
        case 14: .eager
        default: .never
        }
    }

    var random = SplitMix64(state: 42)
    /// Share of provider calls that fail (and are retried).
    var failureRate = 0.005
    /// Serialized view trees of 16–96 bytes. Answers reuse them (copy-on-write buffers) so
    /// the simulated providers cost little next to the engine being measured; the engine
    /// still copies each into its own packed timeline.
    let payloads: [[UInt8]]

    init() {
        var random = SplitMix64(state: 7)
        payloads = (0..<1024).map { i in
            [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: random.int(16...96))
        }
    }

    mutating func placement(_ n: Int) -> Placement {
        let app = random.int(0...(Self.appCount - 1))
        return Placement(
            id: PlacementID(UInt64(n)), app: Self.app(app), kind: Self.kinds[n % 2],
            family: Self.families[random.int(0...(Self.families.count - 1))])
    }

    /// A provider's answer: 4–12 entries, 10–60 min apart (any second), 16–96 bytes each.
    mutating func answer(_ request: FetchRequest, now: Date) -> Timeline? {
        if random.chance(failureRate) { return nil }
        let count = random.int(4...12)
        var date = now
        var entries: [TimelineEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let bytes = payloads[Int(random.next() % UInt64(payloads.count))]
            let relevance = random.chance(0.1) ? EntryRelevance(score: Float(random.int(0...100)), duration: 1800) : nil
            entries.append(TimelineEntry(date: date, relevance: relevance, content: bytes))
            date += Double(random.int(600...3600))
        }
        let policy: ReloadPolicy
        switch Self.policyKind(of: request.placement) {
        case .atEnd: policy = .atEnd
        case .after: policy = .after(now + Double(random.int(900...7200)))
        case .eager: policy = .after(now + 300)
        case .never: policy = .never
        }
        return Timeline(entries: entries, policy: policy)
    }
}
