#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary
import GlimpseJSON

/// What an app (through ActivityKit) and a push server (through APNs) can ask of the
/// device. Each call first fires whatever timers are due, then does its work, and returns
/// its answer together with every event both caused, in order.
extension ActivityManager {
    /// ActivityKit's `Activity.request(attributes:content:pushType:)`.
    ///
    /// Checks, in this order, each refusal naming its `ActivityAuthorizationError`:
    /// device support (`unsupported`), the app's declaration of the attributes type
    /// (`unsupportedTarget`), the user's switches (`denied`), the foreground rule
    /// (`visibility`, except push-to-start and `LiveActivityIntent`), the content-state
    /// size (`attributesTooLarge`), the per-app cap (`targetMaximumExceeded`) and the
    /// device cap (`globalMaximumExceeded`).
    ///
    /// - Parameter startDate: a future instant makes the activity `pending` until then
    ///   (iOS 26 scheduled start); it counts toward the caps meanwhile.
    package mutating func request(
        app: AppID, attributes: ActivityAttributesPayload, content: ActivityContent, pushType: PushType? = nil,
        origin: RequestOrigin = .app(isForeground: true), startDate: Date? = nil
    ) -> Step<Result<ActivityID, ActivityAuthorizationError>, ActivityEvent> {
        step(
            performRequest(
                app: app, attributes: attributes, content: content, pushType: pushType, origin: origin,
                startDate: startDate))
    }

    /// ActivityKit's `update(_:alertConfiguration:timestamp:)`; `timestamp` defaults to
    /// now, as ActivityKit's does. Dropped when older than the last applied change,
    /// ignored once ended, refused when the content state is too large.
    package mutating func update(
        _ id: ActivityID, content: ActivityContent, alert: AlertConfiguration? = nil, timestamp: Date? = nil
    ) -> Step<UpdateResult, ActivityEvent> {
        step(performUpdate(id, content: content, alert: alert, timestamp: timestamp))
    }

    /// ActivityKit's `end(_:dismissalPolicy:timestamp:)`. Without `content` the last
    /// content stays. `.immediate` (or a dismissal date not after now) dismisses at once.
    package mutating func end(
        _ id: ActivityID, content: ActivityContent? = nil,
        dismissalPolicy: DismissalPolicy = .default, timestamp: Date? = nil
    ) -> Step<EndResult, ActivityEvent> {
        step(performEnd(id, content: content, dismissalPolicy: dismissalPolicy, timestamp: timestamp))
    }

    /// The user swiped the activity away: it ends (if it had not) and is dismissed.
    /// Answers false for an unknown activity.
    package mutating func dismissByUser(_ id: ActivityID) -> Step<Bool, ActivityEvent> {
        step(performUserDismissal(id))
    }

    /// Issues a new update token to a `.token` activity and retires the old one
    /// (a device rotates tokens; the app is woken to send the new one to its server).
    /// Answers nil when the activity is unknown, not `.token`, or ended.
    package mutating func rotatePushToken(_ id: ActivityID) -> Step<PushToken?, ActivityEvent> {
        step(performTokenRotation(id))
    }

    /// ActivityKit's `pushToStartToken` for one app and attributes type: the current
    /// one, or a new one (reported as `.pushToStartTokenIssued`) the first time.
    package mutating func pushToStartToken(
        app: AppID, attributesType: String
    ) -> Step<Result<PushToken, ActivityAuthorizationError>, ActivityEvent> {
        step(currentPushToStartToken(app: app, attributesType: attributesType))
    }

    /// Replaces the push-to-start token (`pushToStartTokenUpdates` yields the new one).
    package mutating func rotatePushToStartToken(
        app: AppID, attributesType: String
    ) -> Step<Result<PushToken, ActivityAuthorizationError>, ActivityEvent> {
        step(performPushToStartRotation(app: app, attributesType: attributesType))
    }

    /// A push to one device token, body as received. Parses and checks the body, then
    /// routes it: update tokens take `update`/`end`, push-to-start tokens take `start`.
    package mutating func receivePush(
        headers: LiveActivityPushHeaders, deviceToken: PushToken, body: [UInt8]
    ) -> Step<PushOutcome, ActivityEvent> {
        step(acceptPush(headers: headers, deviceToken: deviceToken, body: body))
    }

    /// A push already parsed (e.g. arriving over gRPC as fields).
    ///
    /// Order of rules for an update token: unknown token or wrong app → rejected; ended
    /// → ignored; stamped past the future limit → dropped; older than the last applied
    /// → dropped; priority 10 over the hourly budget → throttled; priority 5 with a delay
    /// setting → deferred/coalesced; otherwise applied.
    package mutating func receivePush(
        headers: LiveActivityPushHeaders, deviceToken: PushToken, _ push: LiveActivityPush
    ) -> Step<PushOutcome, ActivityEvent> {
        step(acceptPush(headers: headers, deviceToken: deviceToken, push))
    }

    /// A broadcast push (`apns-channel-id`, iOS 18): the same update/end rules for every
    /// activity of the topic's app subscribed to the channel. Broadcast cannot start.
    package mutating func receiveBroadcast(
        headers: LiveActivityPushHeaders, body: [UInt8]
    ) -> Step<Result<[ActivityID: PushOutcome], PushRejection>, ActivityEvent> {
        step(acceptBroadcast(headers: headers, body: body))
    }

    /// `receiveBroadcast(headers:body:)` for a push already parsed.
    package mutating func receiveBroadcast(
        headers: LiveActivityPushHeaders, _ push: LiveActivityPush
    ) -> Step<Result<[ActivityID: PushOutcome], PushRejection>, ActivityEvent> {
        step(acceptBroadcast(headers: headers, push))
    }
}
