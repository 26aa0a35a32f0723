#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import GlimpseVocabulary

/// What the service must do after a call into the executor.
public enum IntentEffect: Sendable, Hashable, Codable {
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
public struct TapCompletion: Sendable, Hashable, Codable {
    public var idempotencyKey: String
    public var app: AppID
    public var target: TapTarget
    public var intent: String
    public var result: TapResult
    /// True when this is a replay answered from the idempotency record.
    public var replayed: Bool
    /// Every placement the tap reloads (the tapped one, and those of the kinds or app the
    /// intent asks `WidgetCenter` to reload), in id order; none for a refusal or a replay.
    public var reloaded: [PlacementID]

    /// The tapped placement; nil for a Live Activity.
    public var placement: PlacementID? { target.placement }
}

/// Identity of one handler call; `rawValue` can travel over the wire as a correlation id.
public struct CallID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "C\(rawValue)" }
}

/// "Call the app's handler for intent X with params".
public struct HandlerCall: Sendable, Hashable, Codable {
    public var id: CallID
    public var app: AppID
    public var intent: String
    public var parameters: [String: TypedValue]
    public var target: TapTarget

    /// The tapped placement; nil for a Live Activity.
    public var placement: PlacementID? { target.placement }
}
