#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary

/// The timeline engine's numbers. Spec values marked UNCONFIRMED are settings whose
/// default is the spec's number; where the spec has no number the default is ours and
/// says so.
package struct TimelineSettings: Sendable, Hashable {
    /// Charged reloads per placement in any rolling `budgetWindow` (spec §1: 40–70/day).
    package var dailyReloadBudget: Int
    /// The rolling window of the budget (24 h, "tuned to usage, not midnight").
    package var budgetWindow: TimeInterval
    /// Charged reloads of one placement are at least this far apart (spec: 5 min). While
    /// the app is active, reloads its timeline's policy asks for keep this spacing too
    /// (only the budget is lifted), so a timeline due again at once is not a loop.
    package var minimumReloadSpacing: TimeInterval
    /// Every reload an app asks for (`reloadTimelines`, `reloadAllTimelines`), charged or
    /// free because the app is active, is at least this long after the placement's previous
    /// one, so an app that asks again from inside its provider cannot loop. User actions
    /// (a tap, placing or editing a widget, a locale or accessibility change) reload at
    /// once: each is one event, not a loop. Ours: the spec has no number (5 s).
    package var minimumReloadInterval: TimeInterval = 5
    /// Entries per timeline; a longer timeline is rejected. UNCONFIRMED (forum: ">400 entries stalls").
    package var maxEntriesPerTimeline: Int
    /// Bytes per timeline (content + URLs); a larger one is rejected. UNCONFIRMED (forum: "10 MB/timeline").
    package var maxTimelineBytes: Int
    /// In Low Power Mode, automatic reload intervals and the minimum spacing are multiplied
    /// by this. UNCONFIRMED: the spec has no number; 2 is ours.
    package var lowPowerStretchFactor: Double
    /// A provider call not answered within this is a failure. UNCONFIRMED ("not published"); 30 s is ours.
    package var providerTimeout: TimeInterval
    /// First retry after a failed provider call; each further failure multiplies it (ours).
    package var retryBackoffBase: TimeInterval
    package var retryBackoffMultiplier: Double
    package var retryBackoffMax: TimeInterval
    /// How long an explicit or free reload request waits before dispatch, so requests made
    /// together coalesce into one provider call. 0: they coalesce until the service next
    /// calls `fireDue()`.
    package var reloadDispatchDelay: TimeInterval
    /// The screen whose point sizes go into the provider context.
    package var deviceScreen: DeviceScreen
    /// Whether the reload after a performed intent is free of the budget. UNCONFIRMED
    /// (spec §3: "Budget-exempt? … C3 claims yes"): default true.
    package var intentReloadsAreFree: Bool

    package static var defaults: Self {
        Self(
            dailyReloadBudget: 70,
            budgetWindow: 24 * 3600,
            minimumReloadSpacing: 5 * 60,
            maxEntriesPerTimeline: 400,
            maxTimelineBytes: 10 * 1024 * 1024,
            lowPowerStretchFactor: 2,
            providerTimeout: 30,
            retryBackoffBase: 60,
            retryBackoffMultiplier: 2,
            retryBackoffMax: 3600,
            reloadDispatchDelay: 0,
            deviceScreen: .default,
            intentReloadsAreFree: true)
    }

    package init(
        dailyReloadBudget: Int, budgetWindow: TimeInterval, minimumReloadSpacing: TimeInterval,
        maxEntriesPerTimeline: Int, maxTimelineBytes: Int, lowPowerStretchFactor: Double,
        providerTimeout: TimeInterval, retryBackoffBase: TimeInterval, retryBackoffMultiplier: Double,
        retryBackoffMax: TimeInterval, reloadDispatchDelay: TimeInterval, deviceScreen: DeviceScreen,
        intentReloadsAreFree: Bool
    ) {
        self.dailyReloadBudget = dailyReloadBudget
        self.budgetWindow = budgetWindow
        self.minimumReloadSpacing = minimumReloadSpacing
        self.maxEntriesPerTimeline = maxEntriesPerTimeline
        self.maxTimelineBytes = maxTimelineBytes
        self.lowPowerStretchFactor = lowPowerStretchFactor
        self.providerTimeout = providerTimeout
        self.retryBackoffBase = retryBackoffBase
        self.retryBackoffMultiplier = retryBackoffMultiplier
        self.retryBackoffMax = retryBackoffMax
        self.reloadDispatchDelay = reloadDispatchDelay
        self.deviceScreen = deviceScreen
        self.intentReloadsAreFree = intentReloadsAreFree
    }

    /// Whether a reload for `reason` is charged to the budget (before the app-active exemption).
    func isFree(_ reason: ReloadReason) -> Bool {
        reason == .intentPerformed ? intentReloadsAreFree : reason.isFree
    }

    /// The wait before retry number `failures` (1 = after the first failure).
    func backoff(afterFailures failures: Int) -> TimeInterval {
        var wait = retryBackoffBase
        for _ in 1..<max(1, failures) where wait < retryBackoffMax { wait *= retryBackoffMultiplier }
        return min(retryBackoffMax, wait)
    }
}
