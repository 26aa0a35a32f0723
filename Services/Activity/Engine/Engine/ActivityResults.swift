#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

/// Why an update or end was dropped without being applied.
package enum DropReason: Sendable, Hashable {
    /// Its timestamp is older than the last applied one (S12, S18).
    case olderThanLastApplied(timestamp: Date, last: Date)
    /// Stamped further ahead than the limit (F8: 8 h; a setting): applies to every event,
    /// start included, so one bad clock cannot freeze an activity until its 8 h end.
    case timestampTooFarInFuture(timestamp: Date, limit: Date)
}

/// The result of `update(_:content:alert:timestamp:)`.
package enum UpdateResult: Sendable, Hashable {
    case applied(ActivityState)
    case droppedAsStale(DropReason)
    /// Ended activities take no updates (spec §4).
    case ignoredBecauseEnded(ActivityState)
    case rejected(ActivityAuthorizationError)
    case unknownActivity
}

/// The result of `end(_:content:dismissalPolicy:timestamp:)`.
package enum EndResult: Sendable, Hashable {
    /// Now `ended` (dismissed at `dismissalDate`) or already `dismissed` (immediate).
    case applied(ActivityState, dismissalDate: Date)
    case droppedAsStale(DropReason)
    case ignoredBecauseEnded(ActivityState)
    case rejected(ActivityAuthorizationError)
    case unknownActivity
}

/// What the service can show about one activity.
package struct ActivitySnapshot: Sendable, Hashable {
    package var id: ActivityID
    package var app: AppID
    package var attributes: ActivityAttributesPayload
    package var content: ActivityContent
    package var state: ActivityState
    package var pushType: PushType?
    package var pushToken: PushToken?
    /// When it became active (nil while pending).
    package var activatedAt: Date?
    /// A counter that orders activities by when they started (the tie-break for relevance).
    package var startOrder: UInt64
    package var endedAt: Date?
    package var dismissalDate: Date?
    package var lastAlert: AlertConfiguration?
    package var lastAlertAt: Date?
}
