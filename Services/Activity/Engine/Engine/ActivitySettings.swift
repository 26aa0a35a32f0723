#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseJSON
import GlimpseVocabulary

/// The activity engine's settings. Values the spec sources are defaults as given;
/// values it marks UNCONFIRMED (or does not give) are settings whose default is the
/// spec's or community's number, or Glimpse's stated guess.
package struct ActivitySettings: Sendable, Hashable {
    /// Longest an activity stays active before the system ends it (S12: 8 h).
    package var maximumActiveDuration: TimeInterval
    /// Longest an ended activity stays on the Lock Screen (S12, S15: 4 h).
    package var lockScreenRetention: TimeInterval
    /// Largest encoded content state, in bytes (S26: 4 KB; F9: 4,096 accepted, 4,097 refused).
    package var contentStateLimit: Int
    /// Whether the encoded attributes count toward `contentStateLimit` too. Off: the
    /// device test (F9) saw static attributes not counted locally.
    package var attributesCountTowardLimit: Bool
    /// Ongoing activities per app (C2 community: 5; UNCONFIRMED).
    package var targetMaximum: Int
    /// Ongoing activities per device; nil = no cap (Apple discloses none; UNCONFIRMED).
    package var globalMaximum: Int?
    /// Largest APNs body for a Live Activity push, in bytes (APNs: 4 KB).
    package var pushPayloadLimit: Int
    /// Largest APNs body for a broadcast push, in bytes (APNs: 5,120).
    package var broadcastPayloadLimit: Int
    /// How long a channel with message storage policy 1 keeps its latest message for
    /// activities that subscribe later (APNs: 8 h).
    package var broadcastStorageDuration: TimeInterval
    /// Priority-10 pushes per activity per hour (C2 community ≈15/h; UNCONFIRMED).
    package var hourlyPushBudget: Int
    /// The same with frequent updates on (C2: "sub-minute delivery"; Glimpse's guess 120/h).
    package var frequentHourlyPushBudget: Int
    /// Rapid push-to-start notifications per app before "budget exceeded" (F6 DTS: ~10).
    package var pushToStartBurst: Int
    /// Time to earn back one push-to-start (unpublished; Glimpse's guess: 6 min, 10/h).
    package var pushToStartRefillInterval: TimeInterval
    /// Delay before a priority-5 push is applied; while waiting, a newer one replaces
    /// it (coalesced). nil = applied at once. Priority 5 is "opportunistic" (F5).
    package var lowPriorityDelay: TimeInterval?
    /// An `update` push whose timestamp is further ahead of now than this is dropped (F8: 8 h).
    package var futureTimestampLimit: TimeInterval
    /// How long after a request the update push token is issued (it arrives
    /// asynchronously on a device; 0 = at the next deadline pass).
    package var pushTokenDelay: TimeInterval
    /// How long an alerting update shows the expanded presentation ("briefly"; UNCONFIRMED: 4 s).
    package var alertExpansionDuration: TimeInterval

    package init(
        maximumActiveDuration: TimeInterval = 8 * 3600,
        lockScreenRetention: TimeInterval = 4 * 3600,
        contentStateLimit: Int = 4096,
        attributesCountTowardLimit: Bool = false,
        targetMaximum: Int = 5,
        globalMaximum: Int? = nil,
        pushPayloadLimit: Int = 4096,
        broadcastPayloadLimit: Int = 5120,
        broadcastStorageDuration: TimeInterval = 8 * 3600,
        hourlyPushBudget: Int = 15,
        frequentHourlyPushBudget: Int = 120,
        pushToStartBurst: Int = 10,
        pushToStartRefillInterval: TimeInterval = 360,
        lowPriorityDelay: TimeInterval? = nil,
        futureTimestampLimit: TimeInterval = 8 * 3600,
        pushTokenDelay: TimeInterval = 0,
        alertExpansionDuration: TimeInterval = 4
    ) {
        self.maximumActiveDuration = maximumActiveDuration
        self.lockScreenRetention = lockScreenRetention
        self.contentStateLimit = contentStateLimit
        self.attributesCountTowardLimit = attributesCountTowardLimit
        self.targetMaximum = targetMaximum
        self.globalMaximum = globalMaximum
        self.pushPayloadLimit = pushPayloadLimit
        self.broadcastPayloadLimit = broadcastPayloadLimit
        self.broadcastStorageDuration = broadcastStorageDuration
        self.hourlyPushBudget = hourlyPushBudget
        self.frequentHourlyPushBudget = frequentHourlyPushBudget
        self.pushToStartBurst = pushToStartBurst
        self.pushToStartRefillInterval = pushToStartRefillInterval
        self.lowPriorityDelay = lowPriorityDelay
        self.futureTimestampLimit = futureTimestampLimit
        self.pushTokenDelay = pushTokenDelay
        self.alertExpansionDuration = alertExpansionDuration
    }

    package static var defaults: Self { Self() }

    /// The bytes `contentStateLimit` counts for an encoded content state: the state, plus
    /// the encoded attributes when `attributesCountTowardLimit` is on.
    package func limitedSize(state: JSONObjectBytes, attributes: JSONObjectBytes) -> Int {
        state.count + (attributesCountTowardLimit ? attributes.count : 0)
    }

    /// Nil when the content state fits `contentStateLimit`; else the counted size and the
    /// limit (a request is refused `attributesTooLarge`).
    package func contentStateViolation(state: JSONObjectBytes, attributes: JSONObjectBytes) -> (size: Int, limit: Int)?
    {
        let size = limitedSize(state: state, attributes: attributes)
        return size <= contentStateLimit ? nil : (size, contentStateLimit)
    }
}
