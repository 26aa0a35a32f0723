#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary

/// Named, app-scoped assets over a content-addressed store (SHA-256), under a byte
/// budget with LRU eviction and pins. It does no I/O: it decides and returns
/// `BlobEffect`s; `AssetCache` (or the service) carries them out on a `BlobStore`.
/// No rule of its own waits for time, so `nextDeadline()` is always nil.
///
/// Invariants:
/// - Each stored blob is held once however many names point at it; `usedBytes` is the
///   sum of stored blob sizes and, after any put, at most `limits.byteBudget`.
/// - A blob is evicted only when none of its names is pinned; eviction is least
///   recently used first and all-or-nothing for a put.
/// - A name keeps its hash after its blob is evicted (state `evicted`); a blob no name
///   points at is deleted at once.
package struct AssetCatalog: Engine {
    package let clock: any WallClock
    package var limits: AssetLimits
    var names: [AssetName: NameRecord] = [:]
    var blobs: [ContentHash: BlobRecord] = [:]
    var lru = LRUList<ContentHash>()
    var pins: [HolderID: Set<AssetName>] = [:]
    var pinCounts: [AssetName: Int] = [:]
    package internal(set) var usedBytes = 0

    package init(clock: any WallClock, limits: AssetLimits = .defaults) {
        self.clock = clock
        self.limits = limits
    }

    /// Checks a name against the rules and the length limit.
    package func name(_ text: String) -> Result<AssetName, AssetError> {
        do { return .success(try AssetName(text, maximumLength: limits.maximumNameLength)) } catch {
            return .failure(.invalidName(error))
        }
    }

    /// Opens an upload. `totalSize`, when given, is checked now against the size limit
    /// and the budget, and at the end against what arrived; `expectedHash` at the end.
    package func beginUpload(
        _ name: String, use: AssetUse = .widget, expectedHash: ContentHash? = nil,
        totalSize: Int? = nil
    ) -> Result<UploadSession, AssetError> {
        let checked: AssetName
        switch self.name(name) {
        case .success(let n): checked = n
        case .failure(let e): return .failure(e)
        }
        if let totalSize {
            guard totalSize <= limits.maximumAssetBytes else {
                return .failure(.assetTooLarge(size: totalSize, limit: limits.maximumAssetBytes))
            }
            guard totalSize <= limits.byteBudget else {
                return .failure(.budgetExhausted(needed: totalSize, evictable: evictableBytes))
            }
        }
        return .success(
            UploadSession(name: checked, use: use, expectedHash: expectedHash, totalSize: totalSize, limits: limits))
    }

    package func nextDeadline() -> Date? { nil }

    package mutating func fireDue() -> [BlobEffect] { [] }

    /// Verifies a finished upload and stores it under its name. Effects, in order:
    /// deletions first, then the commit or discard of the staged bytes.
    package mutating func finish(_ session: UploadSession) -> Step<Result<PutOutcome, AssetError>, BlobEffect> {
        do { return commit(try session.verify()) } catch { return Step(.failure(error)) }
    }

    /// Stores verified bytes' metadata under their name, evicting to make room.
    package mutating func commit(_ upload: UploadSession.Verified) -> Step<Result<PutOutcome, AssetError>, BlobEffect> {
        var effects: [BlobEffect] = []
        let deduplicated = blobs[upload.hash] != nil
        let previous = names[upload.name]?.hash
        // Re-pointing the name frees its old blob if no other name holds it.
        let freed =
            previous.flatMap { p in p != upload.hash && blobs[p]?.names == [upload.name] ? blobs[p]?.size : nil } ?? 0
        if !deduplicated {
            switch makeRoom(for: upload.size - freed, keeping: upload.hash, alsoKeeping: previous) {
            case .failure(let e): return Step(.failure(e))
            case .success(let evicted): effects += evicted.map(BlobEffect.delete)
            }
            blobs[upload.hash] = BlobRecord(size: upload.size, names: [])
            usedBytes += upload.size
        }
        lru.touch(upload.hash)
        if let previous, previous != upload.hash, var old = blobs[previous] {
            old.names.remove(upload.name)
            blobs[previous] = old
            if old.names.isEmpty { effects.append(.delete(previous)); drop(previous) }
        }
        names[upload.name] = NameRecord(hash: upload.hash, use: upload.use, image: upload.image, storedAt: clock.now)
        blobs[upload.hash]!.names.insert(upload.name)
        effects.append(deduplicated ? .discardStaged : .commitStaged(upload.hash))
        let outcome = PutOutcome(
            metadata: metadata(upload.name)!, deduplicated: deduplicated,
            replaced: previous == upload.hash ? nil : previous)
        return Step(.success(outcome), effects: effects)
    }

    /// A name's state without touching its recency.
    package func lookup(_ name: AssetName) -> AssetLookup {
        guard let record = names[name] else { return .unknown(name) }
        guard let m = metadata(name) else { return .evicted(name, record.hash) }
        return .present(m)
    }

    /// Plans a streamed read and marks the blob most recently used.
    package mutating func readPlan(_ name: AssetName, chunkSize: Int? = nil) -> Result<ReadPlan, AssetError> {
        switch lookup(name) {
        case .unknown: return .failure(.unknownAsset(name))
        case .evicted(_, let hash): return .failure(.evicted(name, hash))
        case .present(let m):
            lru.touch(m.hash)
            return .success(
                ReadPlan(name: name, hash: m.hash, size: m.size, chunkSize: max(1, chunkSize ?? limits.readChunkSize)))
        }
    }

    /// Forgets a name; its blob goes when no other name points at it.
    package mutating func remove(_ name: AssetName) -> [BlobEffect] {
        guard let record = names.removeValue(forKey: name) else { return [] }
        guard var blob = blobs[record.hash] else { return [] }
        blob.names.remove(name)
        blobs[record.hash] = blob
        guard blob.names.isEmpty else { return [] }
        drop(record.hash)
        return [.delete(record.hash)]
    }

    /// The blob store lost (or corrupted) a blob: its names become `evicted`.
    package mutating func blobLost(_ hash: ContentHash) { drop(hash) }

    func metadata(_ name: AssetName) -> AssetMetadata? {
        guard let record = names[name], let blob = blobs[record.hash] else { return nil }
        return AssetMetadata(
            name: name, hash: record.hash, size: blob.size, image: record.image, use: record.use,
            storedAt: record.storedAt, pinned: pinCounts[name, default: 0] > 0)
    }

    /// Removes a blob's bytes from the books (names keep their hash).
    mutating func drop(_ hash: ContentHash) {
        guard let blob = blobs.removeValue(forKey: hash) else { return }
        lru.remove(hash)
        usedBytes -= blob.size
    }
}
