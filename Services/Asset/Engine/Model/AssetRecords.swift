#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseVocabulary

/// Who holds a pin: a current widget entry, a live activity (any stable string the
/// service chooses, e.g. `activity:<uuid>` or `widget:<placement>`).
package struct HolderID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    package let value: String
    package init(_ value: String) { self.value = value }
    package init(stringLiteral value: String) { self.value = value }
    package var description: String { value }
}

/// What the engine knows about a named asset whose bytes are present.
package struct AssetMetadata: Sendable, Hashable {
    package var name: AssetName
    package var hash: ContentHash
    package var size: Int
    package var image: ImageInfo
    package var use: AssetUse
    package var storedAt: Date
    package var pinned: Bool
    /// The ETag: the content hash, quoted.
    package var etag: String { hash.etag }
}

/// A name's state.
package enum AssetLookup: Sendable, Hashable {
    case present(AssetMetadata)
    /// Known, but its bytes were evicted: fetch again (the hash says what to expect).
    case evicted(AssetName, ContentHash)
    case unknown(AssetName)
}

/// What the service must do to its blob store after an engine decision.
package enum BlobEffect: Sendable, Hashable {
    /// The upload's staged bytes become the blob with this hash.
    case commitStaged(ContentHash)
    /// The staged bytes are not needed (a duplicate of a stored blob).
    case discardStaged
    /// Delete this blob (evicted, or no name points at it any more).
    case delete(ContentHash)
}

/// The result of storing a named asset.
package struct PutOutcome: Sendable, Hashable {
    package var metadata: AssetMetadata
    /// The bytes were already stored under another (or the same) name.
    package var deduplicated: Bool
    /// The blob the name pointed at before, if it changed.
    package var replaced: ContentHash?
}

/// How to stream one blob out: fixed-size ranges, the last one shorter.
package struct ReadPlan: Sendable, Hashable {
    package var name: AssetName
    package var hash: ContentHash
    package var size: Int
    package var chunkSize: Int

    package var ranges: [Range<Int>] {
        stride(from: 0, to: size, by: chunkSize).map { $0..<min($0 + chunkSize, size) }
    }
}

/// Which of the names upcoming entries reference must be fetched.
package struct PrefetchHint: Sendable, Hashable {
    /// Never stored: the app must supply them.
    package var unknown: [AssetName]
    /// Stored once, evicted since: fetch again.
    package var evicted: [AssetName]
    /// Present (and now most recently used, so they outlive the fetches).
    package var present: [AssetName]
    /// `unknown + evicted`: everything to fetch.
    package var missing: [AssetName] { unknown + evicted }
}

struct NameRecord: Sendable, Codable {
    var hash: ContentHash
    var use: AssetUse
    var image: ImageInfo
    var storedAt: Date
}

struct BlobRecord: Sendable, Codable {
    var size: Int
    var names: Set<AssetName>
}
