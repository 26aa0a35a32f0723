#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary

/// When a placement's next reload goes out, and why not sooner: the answer to "why did my
/// widget not reload?", which WidgetKit never gives.
package struct ReloadStatus: Sendable, Hashable {
    package enum Waiting: Sendable, Hashable {
        /// Nothing is wanted (a `.never` timeline, no request).
        case nothing
        /// A provider call is out.
        case inFlight
        /// The timeline's policy date has not come.
        case policy
        /// The minimum spacing since the last reload.
        case spacing
        /// The budget of the rolling window is spent.
        case budget
        /// The provider failed; retrying with backoff.
        case retryBackoff
        /// Low Power Mode stretches the interval.
        case lowPower
        /// An app's request waits the minimum interval since the last reload.
        case minimumInterval
    }

    /// Charged reloads in the window ending now, and the window's limit.
    package var used: Int
    package var limit: Int
    package var window: TimeInterval
    /// When the next provider call goes out; nil when none is wanted or one is out.
    package var nextReloadAt: Date?
    package var waiting: Waiting
    /// When the oldest charged reload leaves the window (nil when none is in it).
    package var windowFreesAt: Date?
}

extension TimelineScheduler {
    package func reloadStatus(of id: PlacementID) -> ReloadStatus? {
        guard let slot = slotOf[id] else { return nil }
        let record = records[Int(slot)]
        let t = now
        let budget = budgets[Int(slot)]
        let used = budget.used(at: t, window: settings.budgetWindow)
        var status = ReloadStatus(
            used: used, limit: settings.dailyReloadBudget, window: settings.budgetWindow,
            nextReloadAt: nil, waiting: .nothing,
            windowFreesAt: budget.oldest(at: t, window: settings.budgetWindow).map {
                Date(timeIntervalSinceReferenceDate: $0 + settings.budgetWindow)
            })
        if record.isFetching {
            status.waiting = .inFlight
            return status
        }
        guard let plan = record.plan(rules: rules, appActive: isAppActive(record)) else { return status }
        status.nextReloadAt = Date(timeIntervalSinceReferenceDate: plan.time)
        let rules = self.rules
        switch plan.mode {
        case .retry: status.waiting = .retryBackoff
        case .free:
            status.waiting =
                plan.time > plan.wantedAt
                ? (plan.reason == .policy ? .spacing : .minimumInterval) : .policy
        case .charged:
            if plan.time <= plan.wantedAt {
                status.waiting =
                    lowPowerMode && record.policyDueAt.isFinite && plan.wantedAt > record.policyDueAt
                    ? .lowPower : .policy
            } else if record.budgetAllowsAt >= plan.time {
                status.waiting = .budget
            } else if record.lastReloadAt + rules.spacing >= plan.time {
                status.waiting = .spacing
            } else {
                status.waiting = .policy
            }
        }
        return status
    }
}
