#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import GlimpseVocabulary

/// What the service must do after a call into the scheduler.
public enum TimelineEffect: Sendable, Hashable {
    /// Call the app's provider; answer with `timelineReceived` or `timelineFailed`.
    case fetchTimeline(FetchRequest)
    /// Abandon a provider call (timed out, or its placement was removed); its answer will be ignored.
    case cancelFetch(FetchID)
    /// The entry shown by a placement changed; nil means the placeholder.
    case entryChanged(PlacementID, TimelineEntry?)
    /// A provider's new timeline shows the same entry as before: nothing to redraw, but the
    /// reload is done (a tap's answer waits for this, or `entryChanged`, or a failure).
    case timelineUnchanged(PlacementID)
    /// A provider call failed or timed out; the last timeline stays and the call is retried.
    case retryScheduled(PlacementID, at: Date, failures: Int)
    /// A provider's timeline broke a cap and was not taken (it counts as a failure).
    case timelineRejected(PlacementID, TimelineRejection)
    /// The earliest time the scheduler has work; nil when it has none. Emitted when it changes.
    case nextWakeUp(Date?)
}

/// Identity of one provider call; `rawValue` can travel over the wire as a correlation id.
public struct FetchID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    init(slot: UInt32, sequence: UInt32) { rawValue = UInt64(slot) << 32 | UInt64(sequence) }
    var slot: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
    public var description: String { "F\(rawValue)" }
}

/// "Fetch timeline for placement P with context {…}".
public struct FetchRequest: Sendable, Hashable {
    public var id: FetchID
    public var placement: PlacementID
    public var app: AppID
    public var kind: String
    public var context: TimelineContext
    /// Why the reload happened (the most urgent of the coalesced requests).
    public var reason: ReloadReason
    /// Whether this call used one of the placement's daily reloads.
    public var charged: Bool
    /// 0 for a first call, n for the n-th retry of a failed one.
    public var retry: Int
    /// When the reload was first wanted (policy date or request time).
    public var wantedAt: Date
    /// When it became due after spacing, budget and Low Power Mode; dispatch − dueAt is lateness.
    public var dueAt: Date
}

/// `TimelineProviderContext`.
public struct TimelineContext: Sendable, Hashable {
    public var family: WidgetFamily
    public var displaySize: DisplaySize
    public var isPreview: Bool
    public var configuration: [String: ConfigurationValue]

    public init(family: WidgetFamily, displaySize: DisplaySize, isPreview: Bool, configuration: [String: ConfigurationValue]) {
        self.family = family
        self.displaySize = displaySize
        self.isPreview = isPreview
        self.configuration = configuration
    }
}

/// Why a provider is being asked for a timeline.
public enum ReloadReason: UInt8, Sendable, Hashable, Comparable, Codable {
    /// The timeline's policy (`atEnd`, `after`) came due. Charged.
    case policy
    /// `reloadTimelines(ofKind:)` or `reloadAllTimelines()`. Charged unless the app is active.
    case appRequest
    /// The widget was just placed or its configuration edited. Free.
    case placed
    /// The reload after a tapped intent performed. Free unless `intentReloadsAreFree` is off.
    case intentPerformed
    /// System locale changed. Free.
    case localeChanged
    /// Dynamic Type or another accessibility setting changed. Free.
    case accessibilityChanged

    /// Reasons the budget does not charge by default.
    public var isFree: Bool { self >= .placed }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// Why a provider's timeline was not taken.
public enum TimelineRejection: Error, Sendable, Hashable, CustomStringConvertible {
    case tooManyEntries(count: Int, limit: Int)
    case tooManyBytes(count: Int, limit: Int)

    /// The reason as a sentence, for the event log and `Widgets.Get`.
    public var description: String {
        switch self {
        case .tooManyEntries(let count, let limit):
            "the timeline has \(count) entries; the limit is \(limit)"
        case .tooManyBytes(let count, let limit):
            "the timeline's views and URLs take \(count) bytes; the limit is \(limit) (\(limit / (1024 * 1024)) MiB)"
        }
    }
}
