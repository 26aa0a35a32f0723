import GlimpseVocabulary
/// Counts for metrics and the scale benchmark.
extension TimelineScheduler {
    package struct Statistics: Sendable, Hashable {
        /// Live placements.
        package var placements: Int
        /// Entries held across all current timelines.
        package var entries: Int
        /// Content and URL bytes of those entries: the bytes that are the entries' own.
        package var entryBytes: Int
        /// Items in the wake-up heap and the timeout queue, live and stale.
        package var queuedWakeUps: Int
        /// Wake-ups handled by `fireDue()` since the scheduler was made.
        package var handledWakeUps: UInt64
        /// Placements whose wanted reload is waiting for budget to free up.
        package var waitingForBudget: Int
        /// Charged reloads the budgets hold, and the bytes of their storage.
        package var budgetCharges = 0
        package var budgetBytes = 0
    }

    /// Walks every placement (O(n)): for metrics and benchmarks, not for the hot path.
    package func statistics() -> Statistics {
        var entries = 0, bytes = 0, waiting = 0
        for case let timeline? in timelines {
            entries += timeline.count
            bytes += timeline.byteCount
        }
        let (t, rules) = (now, rules)
        for record in records where record.live {
            guard let plan = record.plan(rules: rules, appActive: isAppActive(record)), plan.mode == .charged else {
                continue
            }
            if record.budgetAllowsAt > max(t, plan.wantedAt) { waiting += 1 }
        }
        var statistics = Statistics(
            placements: slotOf.count, entries: entries, entryBytes: bytes,
            queuedWakeUps: queue.count + timeouts.count, handledWakeUps: handledWakeUps, waitingForBudget: waiting)
        for budget in budgets {
            statistics.budgetCharges += budget.held.charges
            statistics.budgetBytes += budget.held.bytes
        }
        return statistics
    }
}
