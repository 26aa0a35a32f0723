import ActivityEngine
import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseVocabulary

/// Activity ids, push tokens and channel ids that look random but come from a seed the
/// journal keeps: SHA-256 of the seed, a label and a counter. Replaying the journal
/// therefore issues the same ids and tokens again, which a restart depends on.
package struct HashedIdentifiers: IdentifierSource {
    let seed: [UInt8]
    var counter: UInt64 = 0

    package init(seed: [UInt8]) {
        self.seed = seed
    }

    mutating func next(_ label: UInt8) -> [UInt8] {
        counter += 1
        var hasher = SHA256()
        hasher.update(data: seed)
        hasher.update(data: [label])
        withUnsafeBytes(of: counter.bigEndian) { hasher.update(bufferPointer: $0) }
        return Array(hasher.finalize())
    }

    /// A version-4-shaped UUID from the next hash for `label`.
    mutating func nextUUID(_ label: UInt8) -> UUID {
        var b = next(label)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }

    package mutating func nextActivityID() -> ActivityID { ActivityID(nextUUID(0x61)) }

    /// An apns-id for a push that came without one: a lowercase UUID, as APNs makes up.
    package mutating func nextRequestID() -> String { nextUUID(0x72).hyphenatedHex(uppercase: false) }

    package mutating func nextPushToken() -> PushToken {
        PushToken(bytes: next(0x74))
    }

    /// A broadcast channel id: 16 bytes, base64 (as APNs hands them out).
    package mutating func nextChannelID() -> ChannelID {
        ChannelID(Data(next(0x63).prefix(16)).base64EncodedString())
    }
}
