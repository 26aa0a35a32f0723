#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

/// Why an activity changed state; carried on `ActivityEvent.stateChanged`.
package enum TransitionReason: String, Sendable, Hashable {
    case requested
    case startedByPush
    case scheduledStartReached
    case staleDateReached
    case contentRefreshed
    case endedByApp
    case endedByPush
    case maximumDurationReached
    case dismissalDateReached
    case dismissedImmediately
    case dismissedByUser
}

/// What happened, for the service to stream to watchers (the gateway, the app).
/// The engine appends these in order; the service drains them with `drainEvents()`.
package enum ActivityEvent: Sendable, Hashable {
    case stateChanged(ActivityID, from: ActivityState?, to: ActivityState, reason: TransitionReason)
    case contentUpdated(ActivityID, ActivityContent, alert: AlertConfiguration?)
    /// The activity's update token, first issue or rotation (`pushTokenUpdates`).
    case pushTokenIssued(ActivityID, PushToken)
    /// An app's push-to-start token for one attributes type (`pushToStartTokenUpdates`).
    case pushToStartTokenIssued(AppID, attributesType: String, PushToken)
    /// A delayed (priority 5) push turned out not to apply when its time came.
    case deferredPushDropped(ActivityID, PushOutcome)
    /// An update or end (from the app or a push) was not applied because of its timestamp:
    /// older than the last applied change, or further ahead than the future limit. As on
    /// a phone the change loses; unlike a phone, the drop is reported.
    case changeDropped(ActivityID, DropReason)
}
