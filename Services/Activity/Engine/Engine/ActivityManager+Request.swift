#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseVocabulary

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
    mutating func performRequest(
        app: AppID,
        attributes: ActivityAttributesPayload,
        content: ActivityContent,
        pushType: PushType? = nil,
        origin: RequestOrigin = .app(isForeground: true),
        startDate: Date? = nil
    ) -> Result<ActivityID, ActivityAuthorizationError> {
        fireDueTimers()
        if let refusal = refusal(app: app, attributes: attributes, content: content, origin: origin) {
            return .failure(refusal)
        }
        let now = clock.now
        let id = identifiers.nextActivityID()
        nextStartOrder += 1
        var record = ActivityRecord(
            id: id, app: app, attributes: attributes, content: content, pushType: pushType,
            state: .pending, startOrder: nextStartOrder)
        ongoing += 1
        ongoingByApp[app, default: 0] += 1
        let reason: TransitionReason = origin == .pushToStart ? .startedByPush : .requested
        var transitions: [ActivityRecord.Transition] = []
        if let startDate, startDate > now {
            record.timers[.scheduledStart].due = startDate
            _ = record.refreshStaleness(now: now)
            emit(.stateChanged(id, from: nil, to: .pending, reason: reason))
        } else {
            _ = record.activate(now: now, config: config, reason: reason)
            emit(.stateChanged(id, from: nil, to: .active, reason: reason))
            if let t = record.refreshStaleness(now: now) { transitions.append(t) }
        }
        if pushType == .token {
            record.timers[.pushToken].due = now.addingTimeInterval(config.pushTokenDelay)
        }
        if case .channel(let channel)? = pushType {
            channels[channel, default: []].insert(id)
        }
        activities[id] = record
        for t in transitions { self.record(t, of: id, app: app) }
        queueTimers(at: activities.index(forKey: id)!)
        // A push-to-start subscriber gets the channel's message once its start is applied.
        if case .channel(let channel)? = pushType, origin != .pushToStart {
            deliverStoredBroadcast(on: channel, to: id)
        }
        return .success(id)
    }

    /// The first rule a request breaks, or nil.
    func refusal(
        app: AppID, attributes: ActivityAttributesPayload, content: ActivityContent,
        origin: RequestOrigin
    ) -> ActivityAuthorizationError? {
        guard device.supportsLiveActivities else { return .unsupported }
        guard let declared = apps[app], declared.attributeTypes.contains(attributes.typeName) else {
            return .unsupportedTarget
        }
        guard device.liveActivitiesEnabled, declared.activitiesEnabled else { return .denied }
        if case .app(isForeground: false) = origin { return .visibility }
        guard fits(content, attributes: attributes) else { return .attributesTooLarge }
        guard ongoingByApp[app, default: 0] < config.targetMaximum else { return .targetMaximumExceeded }
        if let cap = config.globalMaximum, ongoing >= cap { return .globalMaximumExceeded }
        return nil
    }
}
