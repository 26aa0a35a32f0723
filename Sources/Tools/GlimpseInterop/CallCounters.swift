import Synchronization

/// How many calls ended OK and how many with another status.
package final class CallCounters: Sendable {
    let ok = Atomic<Int>(0)
    let failed = Atomic<Int>(0)

    package init() {}

    package var okCount: Int { ok.load(ordering: .relaxed) }
    package var failedCount: Int { failed.load(ordering: .relaxed) }
}
