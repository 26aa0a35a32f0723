#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import GlimpseVocabulary

/// Who holds a pin: a current widget entry, a live activity (any stable string the
/// service chooses, e.g. `activity:<uuid>` or `widget:<placement>`).
public struct HolderID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let value: String
    public init(_ value: String) { self.value = value }
    public init(stringLiteral value: String) { self.value = value }
    public var description: String { value }
}

/// What the engine knows about a named asset whose bytes are present.
public struct AssetMetadata: Sendable, Hashable {
    public var name: AssetName
    public var hash: ContentHash
    public var size: Int
    public var image: ImageInfo
    public var use: AssetUse
    public var storedAt: Date
    public var pinned: Bool
    /// The ETag: the content hash, quoted.
    public var etag: String { hash.etag }
}

/// A name's state.
public enum AssetLookup: Sendable, Hashable {
    case present(AssetMetadata)
    /// Known, but its bytes were evicted: fetch again (the hash says what to expect).
    case evicted(AssetName, ContentHash)
    case unknown(AssetName)
}

/// What the service must do to its blob store after an engine decision.
public enum BlobEffect: Sendable, Hashable {
    /// The upload's staged bytes become the blob with this hash.
    case commitStaged(ContentHash)
    /// The staged bytes are not needed (a duplicate of a stored blob).
    case discardStaged
    /// Delete this blob (evicted, or no name points at it any more).
    case delete(ContentHash)
}

/// The result of storing a named asset.
public struct PutOutcome: Sendable, Hashable {
    public var metadata: AssetMetadata
    /// The bytes were already stored under another (or the same) name.
    public var deduplicated: Bool
    /// The blob the name pointed at before, if it changed.
    public var replaced: ContentHash?
}

/// How to stream one blob out: fixed-size ranges, the last one shorter.
public struct ReadPlan: Sendable, Hashable {
    public var name: AssetName
    public var hash: ContentHash
    public var size: Int
    public var chunkSize: Int

    public var ranges: [Range<Int>] {
        stride(from: 0, to: size, by: chunkSize).map { $0..<min($0 + chunkSize, size) }
    }
}

/// Which of the names upcoming entries reference must be fetched.
public struct PrefetchHint: Sendable, Hashable {
    /// Never stored: the app must supply them.
    public var unknown: [AssetName]
    /// Stored once, evicted since: fetch again.
    public var evicted: [AssetName]
    /// Present (and now most recently used, so they outlive the fetches).
    public var present: [AssetName]
    /// `unknown + evicted`: everything to fetch.
    public var missing: [AssetName] { unknown + evicted }
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
