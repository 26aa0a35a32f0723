#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary

/// What the service must do after a call into the executor.
package enum IntentEffect: Sendable, Hashable, Codable {
    /// Answer the tapper (and anyone replaying the key) with this result.
    case completed(TapCompletion)
    /// A replay arrived while the first tap with its key is still running; its
    /// `.completed` will answer both.
    case alreadyRunning(idempotencyKey: String, app: AppID)
    /// Call the app's intent handler; answer with `handlerFinished`.
    case callHandler(HandlerCall)
    /// Abandon a handler call that timed out; its late answer is ignored.
    case cancelHandlerCall(CallID)
    /// Reload the tapped placement's timeline: exactly one per widget tap that ran `perform()`.
    case reloadPlacement(PlacementID)
    /// `perform()` succeeded and asked for `reloadTimelines(ofKind:)` (the intent's `reloads`).
    case reloadTimelines(ofKind: String, app: AppID)
    /// `perform()` succeeded and asked for `reloadAllTimelines()`.
    case reloadAllTimelines(app: AppID)
    /// An App Group changed; watchers can read `changes(in:since:)`.
    case storeChanged(GroupID, sequence: UInt64)
    /// The earliest time the executor has work (a handler timeout); nil when none.
    case nextWakeUp(Date?)
}

/// The end of one tap.
package struct TapCompletion: Sendable, Hashable, Codable {
    package var idempotencyKey: String
    package var app: AppID
    package var target: TapTarget
    package var intent: String
    package var result: TapResult
    /// True when this is a replay answered from the idempotency record.
    package var replayed: Bool
    /// Every placement the tap reloads (the tapped one, and those of the kinds or app the
    /// intent asks `WidgetCenter` to reload), in id order; none for a refusal or a replay.
    package var reloaded: [PlacementID]

    /// The tapped placement; nil for a Live Activity.
    package var placement: PlacementID? { target.placement }
}

/// Identity of one handler call; `rawValue` can travel over the wire as a correlation id.
package struct CallID: Hashable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    package var description: String { "C\(rawValue)" }
}

/// "Call the app's handler for intent X with params".
package struct HandlerCall: Sendable, Hashable, Codable {
    package var id: CallID
    package var app: AppID
    package var intent: String
    package var parameters: [String: TypedValue]
    package var target: TapTarget

    /// The tapped placement; nil for a Live Activity.
    package var placement: PlacementID? { target.placement }
}
