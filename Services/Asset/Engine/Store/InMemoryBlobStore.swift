import Synchronization
import GlimpseVocabulary

/// A `BlobStore` in a dictionary, for tests. It stores what it is given without
/// checking hashes — integrity is the engine's and the reader's job — so tests can
/// plant corrupt bytes with `put`.
package final class InMemoryBlobStore: BlobStore {
    private struct State {
        var blobs: [ContentHash: [UInt8]] = [:]
        var staged: [UploadID: [UInt8]] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    package func put(_ bytes: [UInt8], as hash: ContentHash) {
        state.withLock { $0.blobs[hash] = bytes }
    }

    package func get(_ hash: ContentHash, range: Range<Int>?) -> [UInt8]? {
        state.withLock { s in
            guard let bytes = s.blobs[hash] else { return nil }
            guard let range else { return bytes }
            let clamped = range.clamped(to: 0..<bytes.count)
            return Array(bytes[clamped])
        }
    }

    package func delete(_ hash: ContentHash) {
        _ = state.withLock { $0.blobs.removeValue(forKey: hash) }
    }

    package func stage(_ chunk: [UInt8], for upload: UploadID) {
        state.withLock { $0.staged[upload, default: []].append(contentsOf: chunk) }
    }

    package func commitStaged(_ upload: UploadID, as hash: ContentHash) {
        state.withLock { s in s.blobs[hash] = s.staged.removeValue(forKey: upload) ?? [] }
    }

    package func discardStaged(_ upload: UploadID) {
        _ = state.withLock { $0.staged.removeValue(forKey: upload) }
    }

    /// Hashes of the stored blobs (for tests).
    package var storedHashes: Set<ContentHash> { state.withLock { Set($0.blobs.keys) } }

    /// Bytes held in staging (for tests: nothing left behind).
    package var stagedBytes: Int { state.withLock { $0.staged.values.reduce(0) { $0 + $1.count } } }
}
