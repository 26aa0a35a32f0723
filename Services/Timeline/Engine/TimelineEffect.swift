#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary

/// What the service must do after a call into the scheduler.
package enum TimelineEffect: Sendable, Hashable {
    /// Call the app's provider; answer with `timelineReceived` or `timelineFailed`.
    case fetchTimeline(FetchRequest)
    /// Abandon a provider call (timed out, or its placement was removed); its answer will be ignored.
    case cancelFetch(FetchID)
    /// The entry shown by a placement changed; nil means the placeholder. The entry is named
    /// in its stored timeline, not copied: `entry` unpacks it.
    case entryChanged(PlacementID, ShownEntry?)
    /// Call the app's `placeholder(in:)` for a new placement; answer with `placeholderReceived`.
    case fetchPlaceholder(PlaceholderRequest)
    /// A placement without an entry shows the app's placeholder (drawn redacted).
    case placeholderShown(PlacementID, TimelineEntry)
    /// A provider's new timeline shows the same entry as before: nothing to redraw, but the
    /// reload is done (a tap's answer waits for this, or `entryChanged`, or a failure).
    case timelineUnchanged(PlacementID)
    /// The `entryChanged` just before came from a provider's answer, not from the clock (the
    /// next entry of a timeline coming due): the call it answered is done.
    case entryAnswered(PlacementID)
    /// A provider call failed or timed out; the last timeline stays and the call is retried.
    case retryScheduled(PlacementID, at: Date, failures: Int)
    /// A provider's timeline broke a cap and was not taken (it counts as a failure).
    case timelineRejected(PlacementID, TimelineRejection)
    /// The earliest time the scheduler has work; nil when it has none. Emitted when it changes.
    case nextWakeUp(Date?)
}

/// Identity of one provider call; `rawValue` can travel over the wire as a correlation id.
package struct FetchID: Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    init(slot: UInt32, sequence: UInt32) { rawValue = UInt64(slot) << 32 | UInt64(sequence) }
    var slot: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
    package var description: String { "F\(rawValue)" }
}

/// "Fetch timeline for placement P with context {…}".
package struct FetchRequest: Sendable, Hashable {
    package var id: FetchID
    package var placement: PlacementID
    package var app: AppID
    package var kind: String
    package var context: TimelineContext
    /// Why the reload happened (the most urgent of the coalesced requests).
    package var reason: ReloadReason
    /// Whether this call used one of the placement's daily reloads.
    package var charged: Bool
    /// 0 for a first call, n for the n-th retry of a failed one.
    package var retry: Int
    /// When the reload was first wanted (policy date or request time).
    package var wantedAt: Date
    /// When it became due after spacing, budget and Low Power Mode; dispatch − dueAt is lateness.
    package var dueAt: Date
}

/// "Ask the app for placement P's placeholder with context {…}".
package struct PlaceholderRequest: Sendable, Hashable {
    package var placement: PlacementID
    package var app: AppID
    package var kind: String
    package var context: TimelineContext
}

/// `TimelineProviderContext`.
package struct TimelineContext: Sendable, Hashable {
    package var family: WidgetFamily
    package var displaySize: DisplaySize
    package var isPreview: Bool
    package var configuration: [String: ConfigurationValue]

    package init(
        family: WidgetFamily, displaySize: DisplaySize, isPreview: Bool, configuration: [String: ConfigurationValue]
    ) {
        self.family = family
        self.displaySize = displaySize
        self.isPreview = isPreview
        self.configuration = configuration
    }
}

/// Why a provider is being asked for a timeline.
package enum ReloadReason: UInt8, Sendable, Hashable, Comparable, Codable {
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
    package var isFree: Bool { self >= .placed }

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// Why a provider's timeline was not taken.
package enum TimelineRejection: Error, Sendable, Hashable, CustomStringConvertible {
    case tooManyEntries(count: Int, limit: Int)
    case tooManyBytes(count: Int, limit: Int)

    /// The reason as a sentence, for the event log and `Widgets.Get`.
    package var description: String {
        switch self {
        case .tooManyEntries(let count, let limit):
            "the timeline has \(count) entries; the limit is \(limit)"
        case .tooManyBytes(let count, let limit):
            "the timeline's views and URLs take \(count) bytes; the limit is \(limit) (\(limit / (1024 * 1024)) MiB)"
        }
    }
}
