#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseJSON
import GlimpseVocabulary

/// Push-to-start tokens (one per app and attributes type, S22 `pushToStartToken`) and
/// each app's push-to-start budget.
///
/// Invariants: `byToken` and `byKey` are inverse maps; a rotated token no longer starts
/// anything.
struct PushToStartRegistry: Sendable, Codable {
    struct Key: Sendable, Hashable, Codable {
        var app: AppID
        var attributesType: String
    }

    var byToken: [PushToken: Key] = [:]
    var byKey: [Key: PushToken] = [:]
    var buckets: [AppID: TokenBucket] = [:]

    mutating func set(_ token: PushToken, for key: Key) {
        if let old = byKey[key] { byToken[old] = nil }
        byKey[key] = token
        byToken[token] = key
    }
}

/// A burst budget: `capacity` uses at once, one earned back per `refillInterval`.
/// Invariant: `available` is in 0...capacity after `refill(now:)`.
package struct TokenBucket: Sendable, Hashable, Codable {
    package private(set) var available: Double
    package let capacity: Int
    package let refillInterval: TimeInterval
    private var lastRefill: Date

    package init(capacity: Int, refillInterval: TimeInterval, now: Date) {
        self.capacity = capacity
        self.refillInterval = refillInterval
        self.available = Double(capacity)
        self.lastRefill = now
    }

    mutating func refill(now: Date) {
        guard now > lastRefill, refillInterval > 0 else { return }
        available = min(Double(capacity), available + now.timeIntervalSince(lastRefill) / refillInterval)
        lastRefill = now
    }

    /// Takes one use if there is one; otherwise returns when the next one is earned.
    package mutating func take(now: Date) -> Date? {
        refill(now: now)
        if available >= 1 {
            available -= 1
            return nil
        }
        return now.addingTimeInterval((1 - available) * refillInterval)
    }
}
