#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
import GlimpseVocabulary

extension ActivityManager {
    /// A broadcast push (`apns-channel-id`, iOS 18): the same update/end rules for every
    /// activity of the topic's app subscribed to the channel. Broadcast cannot start
    /// (S13). Glimpse does not charge the per-activity hourly budget for broadcasts
    /// (Apple publishes no channel budget).
    mutating func acceptBroadcast(headers: LiveActivityPushHeaders, body: [UInt8]) -> Result<[ActivityID: PushOutcome], PushRejection> {
        let push: LiveActivityPush
        do { push = try LiveActivityPush.parse(body, payloadLimit: config.pushPayloadLimit) } catch {
            return .failure(.invalidPayload(error))
        }
        return acceptBroadcast(headers: headers, push)
    }

    mutating func acceptBroadcast(headers: LiveActivityPushHeaders, _ push: LiveActivityPush) -> Result<[ActivityID: PushOutcome], PushRejection> {
        fireDueTimers()
        guard push.event != .start else { return .failure(.broadcastCannotStart) }
        guard let channel = headers.channelID, let members = channels[channel] else { return .failure(.unknownChannel) }
        var outcomes: [ActivityID: PushOutcome] = [:]
        for id in members.sorted() where activities[id]?.app == headers.app {
            outcomes[id] = deliver(push, to: id, priority: headers.priority, budgeted: false)
        }
        guard !outcomes.isEmpty else { return .failure(.unknownChannel) }
        return .success(outcomes)
    }
}
