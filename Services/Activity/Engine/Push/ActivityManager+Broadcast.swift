#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

/// A channel's latest message, kept for the activities that subscribe after it was sent.
struct StoredBroadcast: Sendable, Hashable, Codable {
    var push: LiveActivityPush
    var priority: Int
    var storedAt: Date
}

extension ActivityManager {
    /// A broadcast push (`apns-channel-id`, iOS 18): the same update/end rules for every
    /// activity of the topic's app subscribed to the channel. Broadcast cannot start
    /// (S13). Glimpse does not charge the per-activity hourly budget for broadcasts
    /// (Apple publishes no channel budget). A channel with message storage policy 1
    /// (`headers.storesMessage`) also keeps the push for later subscribers, even when
    /// nobody follows it yet.
    mutating func acceptBroadcast(
        headers: LiveActivityPushHeaders, body: [UInt8]
    ) -> Result<[ActivityID: PushOutcome], PushRejection> {
        let push: LiveActivityPush
        do { push = try LiveActivityPush.parse(body, payloadLimit: config.broadcastPayloadLimit) } catch {
            return .failure(.invalidPayload(error))
        }
        return acceptBroadcast(headers: headers, push)
    }

    mutating func acceptBroadcast(
        headers: LiveActivityPushHeaders, _ push: LiveActivityPush
    ) -> Result<[ActivityID: PushOutcome], PushRejection> {
        fireDueTimers()
        guard push.event != .start else { return .failure(.broadcastCannotStart) }
        guard let channel = headers.channelID else { return .failure(.unknownChannel) }
        if headers.storesMessage { store(push, priority: headers.priority, on: channel) }
        guard let members = channels[channel] else { return .failure(.unknownChannel) }
        var outcomes: [ActivityID: PushOutcome] = [:]
        for id in members.sorted() where activities[id]?.app == headers.app {
            outcomes[id] = deliver(push, to: id, priority: headers.priority, budgeted: false)
        }
        guard !outcomes.isEmpty else { return .failure(.unknownChannel) }
        return .success(outcomes)
    }

    /// Keeps `push` as the channel's latest message, unless the one kept is newer (a
    /// subscriber would drop an older one anyway).
    private mutating func store(_ push: LiveActivityPush, priority: Int, on channel: ChannelID) {
        let now = clock.now
        if let kept = storedBroadcasts[channel], !isExpired(kept, now: now), kept.push.timestamp > push.timestamp {
            return
        }
        storedBroadcasts[channel] = StoredBroadcast(push: push, priority: priority, storedAt: now)
    }

    /// The channel's stored message for an activity that has just subscribed to it: what
    /// a device gets when it joins a channel that keeps its latest message.
    mutating func deliverStoredBroadcast(on channel: ChannelID, to id: ActivityID) {
        guard let kept = storedBroadcasts[channel] else { return }
        guard !isExpired(kept, now: clock.now) else {
            storedBroadcasts[channel] = nil
            return
        }
        // Applied, or dropped, with the same events as a broadcast that arrives now.
        _ = deliver(kept.push, to: id, priority: kept.priority, budgeted: false)
    }

    /// Kept longer than `broadcastStorageDuration`: gone, as at Apple.
    private func isExpired(_ kept: StoredBroadcast, now: Date) -> Bool {
        now.timeIntervalSince(kept.storedAt) > config.broadcastStorageDuration
    }

    /// A deleted channel keeps nothing.
    package mutating func forgetChannel(_ channel: ChannelID) {
        storedBroadcasts[channel] = nil
    }
}
