#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

/// The Dynamic Island and Lock Screen rules of spec §4 and §6 as one pure function
/// of the activities and the time.
///
/// Invariants:
/// - Only active and stale activities reach the Dynamic Island; ended ones stay on
///   the Lock Screen until dismissed; pending ones show nowhere.
/// - Order everywhere: higher `relevanceScore` first; equal scores → started first.
/// - A long press wins over an alert; the most recent unexpired alert wins over the rest.
/// What the rules read of an activity: the engine's snapshots, and the activities a
/// device-side consumer (the gateway) knows from the wire.
package protocol PresentationCandidate: SendableMetatype {
    var id: ActivityID { get }
    var app: AppID { get }
    var state: ActivityState { get }
    var relevanceScore: Double { get }
    var activatedAt: Date? { get }
    var startOrder: UInt64 { get }
    var lastAlertAt: Date? { get }
}

extension ActivitySnapshot: PresentationCandidate {
    package var relevanceScore: Double { content.relevanceScore }
}

package enum PresentationRules {
    package static func layout<A: PresentationCandidate>(
        of activities: [A], now: Date, longPressed: ActivityID? = nil,
        alertExpansion: TimeInterval = ActivitySettings.defaults.alertExpansionDuration
    ) -> PresentationLayout {
        let lockScreen = activities.filter { $0.state.isOnLockScreen }.sorted(by: moreRelevant)
        let island = lockScreen.filter { $0.state.isInDynamicIsland }
        var layout = PresentationLayout(dynamicIsland: .none, lockScreen: lockScreen.map(\.id), validUntil: nil)

        if let pressed = longPressed, island.contains(where: { $0.id == pressed }) {
            layout.dynamicIsland = .expanded(pressed, reason: .longPress)
            return layout
        }
        let alerting = island.compactMap { a -> (A, Date)? in
            guard let at = a.lastAlertAt, now < at.addingTimeInterval(alertExpansion) else { return nil }
            return (a, at)
        }
        if let (latest, at) = alerting.max(by: { $0.1 < $1.1 }) {
            layout.dynamicIsland = .expanded(latest.id, reason: .alert)
            layout.validUntil = at.addingTimeInterval(alertExpansion)
            return layout
        }
        var seenApps = Set<AppID>()
        let bestPerApp = island.filter { seenApps.insert($0.app).inserted }
        switch bestPerApp.count {
        case 0: layout.dynamicIsland = .none
        case 1: layout.dynamicIsland = .compact(bestPerApp[0].id)
        default: layout.dynamicIsland = .minimal(attached: bestPerApp[0].id, detached: bestPerApp[1].id)
        }
        return layout
    }

    /// Relevance first; on a tie the one that became active first (then requested first).
    package static func moreRelevant<A: PresentationCandidate>(_ a: A, _ b: A) -> Bool {
        if a.relevanceScore != b.relevanceScore {
            return a.relevanceScore > b.relevanceScore
        }
        let aStart = a.activatedAt ?? .distantFuture
        let bStart = b.activatedAt ?? .distantFuture
        if aStart != bStart { return aStart < bStart }
        return a.startOrder < b.startOrder
    }
}

extension ActivityManager {
    /// The layout for the engine's activities now.
    package func presentation(longPressed: ActivityID? = nil) -> PresentationLayout {
        PresentationRules.layout(
            of: allActivities, now: clock.now, longPressed: longPressed,
            alertExpansion: config.alertExpansionDuration)
    }
}
