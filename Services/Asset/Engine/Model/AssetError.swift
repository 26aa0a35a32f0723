package import GlimpseVocabulary
/// Every refusal of the asset engine, each naming its rule.
package enum AssetError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidName(AssetNameError)
    case unsupportedImage(ImageHeaderError)
    /// A widget image over the area cap (F10).
    case imageAreaTooLarge(width: Int, height: Int, limit: Int)
    /// A Live Activity image larger than its presentation (S12), in pixels at the set scale.
    case imageLargerThanPresentation(LiveActivityPresentation, width: Int, height: Int, maxWidth: Int, maxHeight: Int)
    case assetTooLarge(size: Int, limit: Int)
    /// The upload's length differs from the announced total.
    case sizeMismatch(expected: Int, received: Int)
    /// The upload's SHA-256 differs from the announced one.
    case integrityMismatch(expected: ContentHash, actual: ContentHash)
    /// Not enough unpinned bytes to evict for the new blob.
    case budgetExhausted(needed: Int, evictable: Int)
    case unknownAsset(AssetName)
    /// The name is known but its bytes were evicted; fetch it again.
    case evicted(AssetName, ContentHash)
    /// The blob store no longer has (or returned corrupt) bytes for this hash.
    case blobCorrupt(ContentHash)

    package var description: String {
        switch self {
        case .invalidName(let e): "invalid asset name: \(e)"
        case .unsupportedImage(let e): e.description
        case .imageAreaTooLarge(let w, let h, let limit):
            "a \(w)×\(h) widget image is \(w * h) pixels; the limit is \(limit)"
        case .imageLargerThanPresentation(let p, let w, let h, let mw, let mh):
            "a \(w)×\(h) image is larger than the \(p.rawValue) presentation (\(mw)×\(mh) px)"
        case .assetTooLarge(let size, let limit): "the asset is \(size) bytes; the limit is \(limit)"
        case .sizeMismatch(let e, let r): "announced \(e) bytes, received \(r)"
        case .integrityMismatch(let e, let a): "SHA-256 is \(a), expected \(e)"
        case .budgetExhausted(let needed, let evictable):
            "needs \(needed) bytes; only \(evictable) are evictable (the rest are pinned)"
        case .unknownAsset(let n): "no asset named \(n)"
        case .evicted(let n, _): "\(n) was evicted; fetch it again"
        case .blobCorrupt(let h): "the stored bytes for \(h) are missing or do not match their hash"
        }
    }
}
