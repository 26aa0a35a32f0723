#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

/// What became of one push. Every push gets one; none is dropped silently.
package enum PushOutcome: Sendable, Hashable {
    /// An update or end was applied; the activity is now in this state.
    case applied(ActivityID, ActivityState)
    /// A push-to-start created this activity.
    case started(ActivityID)
    /// Priority 5: held until the instant, then applied (unless superseded).
    case deferred(ActivityID, until: Date)
    /// Priority 5: replaced a push still held for the activity (the older one is dropped).
    case coalesced(ActivityID, until: Date)
    case droppedAsStale(ActivityID, DropReason)
    /// A start stamped beyond the future limit: no activity was started.
    case startDropped(DropReason)
    /// The activity had ended; pushes after the end are ignored (S13).
    case ignoredBecauseEnded(ActivityID, ActivityState)
    case throttled(ThrottleReason)
    case rejected(PushRejection)

    /// The activity the outcome names, if any (the one its log record and outcome show).
    package var activity: ActivityID? {
        switch self {
        case .applied(let id, _), .started(let id), .deferred(let id, _), .coalesced(let id, _),
            .droppedAsStale(let id, _), .ignoredBecauseEnded(let id, _),
            .throttled(.hourlyBudgetExceeded(let id, _, _)):
            id
        case .startDropped, .throttled(.pushToStartBudgetExceeded), .rejected: nil
        }
    }
}

/// A push over budget.
package enum ThrottleReason: Sendable, Hashable, CustomStringConvertible {
    /// Priority-10 pushes for this activity in the last hour reached the budget.
    case hourlyBudgetExceeded(ActivityID, budget: Int, retryAfter: Date)
    /// Too many push-to-start notifications for this app in a burst (F6).
    case pushToStartBudgetExceeded(AppID, budget: Int, retryAfter: Date)

    package var apnsStatus: Int { 429 }
    package var apnsReason: String { "TooManyRequests" }

    package var description: String {
        switch self {
        case .hourlyBudgetExceeded(_, let budget, let at):
            "over the hourly budget of \(budget) priority-10 pushes; next accepted at \(at); use priority 5 for non-urgent updates"
        case .pushToStartBudgetExceeded(_, let budget, let at):
            "Push-to-start budget exceeded (burst of \(budget)); next accepted at \(at)"
        }
    }
}

/// A push refused before it reached an activity.
package enum PushRejection: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidPayload(PushPayloadError)
    case invalidHeaders(PushHeaderError)
    /// No activity or push-to-start registration holds this token.
    case badDeviceToken
    /// The token belongs to another app than the topic names.
    case deviceTokenNotForTopic
    /// e.g. `start` sent to an update token, or `update` to a push-to-start token.
    case eventNotAllowed(LiveActivityPush.Event, reason: String)
    /// The push-to-start token was minted for another attributes type.
    case attributesTypeMismatch(expected: String, got: String)
    /// Refused by the device with ActivityKit's reason (a push-to-start over a cap, a content state too large).
    case refused(ActivityAuthorizationError)
    /// Broadcast cannot start an activity (S13).
    case broadcastCannotStart
    /// A broadcast push without `apns-channel-id`, or to a channel nothing listens on.
    case unknownChannel

    package var apnsStatus: Int {
        switch self {
        case .invalidPayload(let e): e.apnsStatus
        case .invalidHeaders(let e): e.apnsStatus
        case .badDeviceToken: 400
        case .deviceTokenNotForTopic: 400
        case .refused(.targetMaximumExceeded), .refused(.globalMaximumExceeded): 429
        default: 400
        }
    }

    package var apnsReason: String {
        switch self {
        case .invalidPayload(let e): e.apnsReason
        case .invalidHeaders(let e): e.apnsReason
        case .badDeviceToken: "BadDeviceToken"
        case .deviceTokenNotForTopic: "DeviceTokenNotForTopic"
        case .eventNotAllowed: "EventNotAllowed"
        case .attributesTypeMismatch: "AttributesTypeMismatch"
        case .refused(let e): "Refused.\(e.rawValue)"
        case .broadcastCannotStart: "BroadcastCannotStart"
        case .unknownChannel: "BadChannelId"
        }
    }

    package var description: String {
        switch self {
        case .invalidPayload(let e): e.description
        case .invalidHeaders(let e): e.description
        case .badDeviceToken: "no Live Activity or push-to-start registration has this token"
        case .deviceTokenNotForTopic: "the token belongs to another app than apns-topic names"
        case .eventNotAllowed(let event, let reason): "event \(event.rawValue) not allowed: \(reason)"
        case .attributesTypeMismatch(let expected, let got): "this push-to-start token starts \(expected), not \(got)"
        case .refused(let e): "the device refused it: \(e.rawValue)"
        case .broadcastCannotStart: "a broadcast push cannot start an activity"
        case .unknownChannel: "no activity listens on this channel"
        }
    }
}
