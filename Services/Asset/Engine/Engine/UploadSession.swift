import Crypto
import GlimpseVocabulary

/// One streamed upload: hashes and measures each chunk as it arrives and reads the
/// image header from the first bytes, refusing as early as the bytes allow (a poster
/// too large for its presentation is refused at the chunk holding its header).
///
/// Invariants:
/// - It keeps no chunk beyond the header prefix (at most `headerSniffLimit` bytes);
///   the bytes themselves go wherever the caller puts them (a staging file).
/// - After any thrown error the session is spent: the caller discards what it staged.
package struct UploadSession: Sendable {
    package let name: AssetName
    package let use: AssetUse
    package let expectedHash: ContentHash?
    package let totalSize: Int?
    let limits: AssetLimits
    private var hasher = SHA256()
    package private(set) var received = 0
    private var prefix: [UInt8] = []
    package private(set) var image: ImageInfo?

    init(name: AssetName, use: AssetUse, expectedHash: ContentHash?, totalSize: Int?, limits: AssetLimits) {
        self.name = name
        self.use = use
        self.expectedHash = expectedHash
        self.totalSize = totalSize
        self.limits = limits
    }

    /// Takes the next chunk.
    package mutating func append(_ chunk: [UInt8]) throws(AssetError) {
        received += chunk.count
        if let totalSize, received > totalSize { throw .sizeMismatch(expected: totalSize, received: received) }
        guard received <= limits.maximumAssetBytes else {
            throw .assetTooLarge(size: received, limit: limits.maximumAssetBytes)
        }
        chunk.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        guard image == nil else { return }
        prefix.append(contentsOf: chunk.prefix(max(0, limits.headerSniffLimit - prefix.count)))
        try inspectHeader()
    }

    private mutating func inspectHeader() throws(AssetError) {
        let progress: ImageHeaderParser.Progress
        do { progress = try ImageHeaderParser.inspect(prefix) } catch { throw .unsupportedImage(error) }
        switch progress {
        case .found(let info):
            if let refusal = limits.violation(of: info, for: use) { throw refusal }
            image = info
            prefix = []
        case .needMoreData:
            if prefix.count >= limits.headerSniffLimit {
                throw .unsupportedImage(.headerTooLong(limit: limits.headerSniffLimit))
            }
        }
    }

    /// What a finished upload proved: its hash, size and image header.
    package struct Verified: Sendable, Hashable {
        package var name: AssetName
        package var use: AssetUse
        package var hash: ContentHash
        package var size: Int
        package var image: ImageInfo

        /// What an upload proved, as a service journaled it (replay takes it as is).
        package init(name: AssetName, use: AssetUse, hash: ContentHash, size: Int, image: ImageInfo) {
            self.name = name
            self.use = use
            self.hash = hash
            self.size = size
            self.image = image
        }
    }

    /// Ends the upload: the size must match the announced total, the hash the
    /// announced hash, and the header must have been complete.
    package func verify() throws(AssetError) -> Verified {
        if let totalSize, received != totalSize { throw .sizeMismatch(expected: totalSize, received: received) }
        guard let image else {
            throw .unsupportedImage(prefix.isEmpty ? .unsupportedFormat(detected: nil) : .truncated)
        }
        let hash = ContentHash(hasher.finalize())
        if let expectedHash, expectedHash != hash { throw .integrityMismatch(expected: expectedHash, actual: hash) }
        return Verified(name: name, use: use, hash: hash, size: received, image: image)
    }
}
