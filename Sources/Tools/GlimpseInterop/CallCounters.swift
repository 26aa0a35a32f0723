import Synchronization

/// How many calls ended OK and how many with another status.
public final class CallCounters: Sendable {
    let ok = Atomic<Int>(0)
    let failed = Atomic<Int>(0)

    public init() {}

    public var okCount: Int { ok.load(ordering: .relaxed) }
    public var failedCount: Int { failed.load(ordering: .relaxed) }
}
