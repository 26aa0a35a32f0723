#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseVocabulary

extension ActivityManager {
    /// A `start` push to a push-to-start token (S13, S22): the device starts the
    /// activity itself (no foreground needed), gives it an update token (or the
    /// `input-push-channel`), and shows the alert.
    ///
    /// Rules: the attributes type must be declared and match the token's; the same
    /// refusals as `request` apply (except `visibility`); then the app's push-to-start
    /// burst budget is charged — a refused start does not spend it.
    mutating func start(_ push: LiveActivityPush, key: PushToStartRegistry.Key) -> PushOutcome {
        guard let typeName = push.attributesType, let value = push.attributes, let state = push.contentState else {
            return .rejected(.invalidPayload(.missingField("aps.attributes")))
        }
        guard apps[key.app]?.attributeTypes.contains(typeName) == true else {
            return .rejected(.invalidPayload(.unknownAttributesType(typeName)))
        }
        guard typeName == key.attributesType else {
            return .rejected(.attributesTypeMismatch(expected: key.attributesType, got: typeName))
        }
        let attributes = ActivityAttributesPayload(typeName: typeName, value: value)
        let content = ActivityContent(state: state, staleDate: push.staleDate, relevanceScore: push.relevanceScore ?? 0)
        if let refusal = refusal(app: key.app, attributes: attributes, content: content, origin: .pushToStart) {
            return .rejected(.refused(refusal))
        }
        // A start stamped far ahead would make every later update and end lose to it
        // until the 8 h cap: the future limit applies to starts as to every event.
        if let drop = futureDrop(push.timestamp) { return .startDropped(drop) }
        let now = clock.now
        var bucket =
            pushToStart.buckets[key.app]
            ?? TokenBucket(
                capacity: config.pushToStartBurst, refillInterval: config.pushToStartRefillInterval, now: now)
        let retry = bucket.take(now: now)
        pushToStart.buckets[key.app] = bucket
        if let retry {
            return .throttled(.pushToStartBudgetExceeded(key.app, budget: config.pushToStartBurst, retryAfter: retry))
        }
        let pushType: PushType = push.inputPushChannel.map { .channel($0) } ?? .token
        switch performRequest(
            app: key.app, attributes: attributes, content: content, pushType: pushType, origin: .pushToStart,
            startDate: nil)
        {
        case .failure(let error):
            return .rejected(.refused(error))
        case .success(let id):
            let i = activities.index(forKey: id)!
            activities.values[i].lastTimestamp = push.timestamp
            if let alert = push.alert {
                activities.values[i].lastAlert = alert.configuration
                activities.values[i].lastAlertAt = now
            }
            if let channel = push.inputPushChannel { deliverStoredBroadcast(on: channel, to: id) }
            return .started(id)
        }
    }
}
