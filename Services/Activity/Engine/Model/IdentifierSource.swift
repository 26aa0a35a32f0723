#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

/// Where new activity ids and push tokens come from. Randomness is the only outside
/// input the engine has besides the clock, so it is injectable like the clock:
/// tests and benchmarks use `SequentialIdentifiers` and get the same ids every run.
package protocol IdentifierSource: Sendable, Codable {
    mutating func nextActivityID() -> ActivityID
    mutating func nextPushToken() -> PushToken
}

/// Random UUIDs and 32-byte random tokens (what a device hands out).
package struct RandomIdentifiers: IdentifierSource {
    package init() {}
    package mutating func nextActivityID() -> ActivityID { ActivityID(UUID()) }
    package mutating func nextPushToken() -> PushToken {
        var rng = SystemRandomNumberGenerator()
        return PushToken(bytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }
}

/// Counting ids: activity n is `00000000-0000-0000-0000-<n as 12 hex digits>`, token n
/// is 32 bytes ending in n. Deterministic, for tests and benchmarks.
package struct SequentialIdentifiers: IdentifierSource {
    private var nextActivity: UInt64
    private var nextToken: UInt64

    package init(start: UInt64 = 1) {
        nextActivity = start
        nextToken = start
    }

    package mutating func nextActivityID() -> ActivityID {
        defer { nextActivity += 1 }
        let n = nextActivity
        let b = (0..<8).map { UInt8(truncatingIfNeeded: n >> (8 * (7 - $0))) }
        return ActivityID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7])))
    }

    package mutating func nextPushToken() -> PushToken {
        defer { nextToken += 1 }
        let n = nextToken
        return PushToken(
            bytes: Array(repeating: 0, count: 24) + (0..<8).map { UInt8(truncatingIfNeeded: n >> (8 * (7 - $0))) })
    }
}
