#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import GlimpseJSON
public import GlimpseVocabulary

/// Why an update or end was dropped without being applied.
public enum DropReason: Sendable, Hashable {
    /// Its timestamp is older than the last applied one (S12, S18).
    case olderThanLastApplied(timestamp: Date, last: Date)
    /// Stamped further ahead than the limit (F8: 8 h; a setting): applies to every event,
    /// start included, so one bad clock cannot freeze an activity until its 8 h end.
    case timestampTooFarInFuture(timestamp: Date, limit: Date)
}

/// The result of `update(_:content:alert:timestamp:)`.
public enum UpdateResult: Sendable, Hashable {
    case applied(ActivityState)
    case droppedAsStale(DropReason)
    /// Ended activities take no updates (spec §4).
    case ignoredBecauseEnded(ActivityState)
    case rejected(ActivityAuthorizationError)
    case unknownActivity
}

/// The result of `end(_:content:dismissalPolicy:timestamp:)`.
public enum EndResult: Sendable, Hashable {
    /// Now `ended` (dismissed at `dismissalDate`) or already `dismissed` (immediate).
    case applied(ActivityState, dismissalDate: Date)
    case droppedAsStale(DropReason)
    case ignoredBecauseEnded(ActivityState)
    case rejected(ActivityAuthorizationError)
    case unknownActivity
}

/// What the service can show about one activity.
public struct ActivitySnapshot: Sendable, Hashable {
    public var id: ActivityID
    public var app: AppID
    public var attributes: ActivityAttributesPayload
    public var content: ActivityContent
    public var state: ActivityState
    public var pushType: PushType?
    public var pushToken: PushToken?
    /// When it became active (nil while pending).
    public var activatedAt: Date?
    /// A counter that orders activities by when they started (the tie-break for relevance).
    public var startOrder: UInt64
    public var endedAt: Date?
    public var dismissalDate: Date?
    public var lastAlert: AlertConfiguration?
    public var lastAlertAt: Date?
}
