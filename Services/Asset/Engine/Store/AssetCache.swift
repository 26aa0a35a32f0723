import Crypto
package import GlimpseVocabulary

/// The asset engine driven against a `BlobStore`: chunked put and get with integrity
/// checks, carrying out the engine's `BlobEffect`s. The engine decides; this only does
/// what it is told, through the store the service supplies.
///
/// Invariants: a failed upload leaves nothing staged; a read never yields its last
/// chunk unless all the bytes hash to the blob's name.
package struct AssetCache<Store: BlobStore>: Sendable {
    package var engine: AssetCatalog
    package let store: Store
    private var nextUpload: UInt64 = 0

    package init(engine: AssetCatalog, store: Store) {
        self.engine = engine
        self.store = store
    }

    /// An upload in progress.
    package struct Upload: Sendable {
        package let id: UploadID
        package var session: UploadSession
    }

    package mutating func beginUpload(
        _ name: String, use: AssetUse = .widget, expectedHash: ContentHash? = nil,
        totalSize: Int? = nil
    ) throws(AssetError) -> Upload {
        let session = try engine.beginUpload(name, use: use, expectedHash: expectedHash, totalSize: totalSize).get()
        nextUpload += 1
        return Upload(id: UploadID(nextUpload), session: session)
    }

    /// Checks and stages one chunk; on refusal the staging is discarded.
    package func append(_ chunk: [UInt8], to upload: inout Upload) throws {
        do { try upload.session.append(chunk) } catch {
            try store.discardStaged(upload.id)
            throw error
        }
        try store.stage(chunk, for: upload.id)
    }

    /// Verifies and commits; on refusal the staging is discarded. Answers with the
    /// outcome and the blob work carried out.
    package mutating func finish(_ upload: Upload) throws -> Step<PutOutcome, BlobEffect> {
        let step = engine.finish(upload.session)
        switch step.answer {
        case .failure(let error):
            try store.discardStaged(upload.id)
            throw error
        case .success(let outcome):
            try apply(step.effects, upload: upload.id)
            return Step(outcome, effects: step.effects)
        }
    }

    /// A whole asset in chunks of `chunkSize`.
    package mutating func put(
        _ name: String, _ bytes: [UInt8], use: AssetUse = .widget, chunkSize: Int = 64 << 10,
        expectedHash: ContentHash? = nil
    ) throws -> Step<PutOutcome, BlobEffect> {
        var upload = try beginUpload(name, use: use, expectedHash: expectedHash, totalSize: bytes.count)
        for start in stride(from: 0, to: bytes.count, by: max(1, chunkSize)) {
            try append(Array(bytes[start..<min(start + chunkSize, bytes.count)]), to: &upload)
        }
        return try finish(upload)
    }

    /// Opens a streamed read of a named asset.
    package mutating func read(_ name: AssetName, chunkSize: Int? = nil) throws(AssetError) -> ChunkedRead<Store> {
        ChunkedRead(plan: try engine.readPlan(name, chunkSize: chunkSize).get(), store: store)
    }

    /// Deletes a name (and its blob when no other name holds it).
    package mutating func remove(_ name: AssetName) throws {
        try apply(engine.remove(name), upload: nil)
    }

    package mutating func setByteBudget(_ bytes: Int) throws {
        try apply(engine.setByteBudget(bytes), upload: nil)
    }

    func apply(_ effects: [BlobEffect], upload: UploadID?) throws {
        for effect in effects {
            switch effect {
            case .delete(let hash): try store.delete(hash)
            case .commitStaged(let hash): if let upload { try store.commitStaged(upload, as: hash) }
            case .discardStaged: if let upload { try store.discardStaged(upload) }
            }
        }
    }
}

/// Yields a blob's bytes in chunks, hashing as it goes; the last chunk comes only if
/// the whole hashes to the blob's name, else `AssetError.blobCorrupt`.
package struct ChunkedRead<Store: BlobStore>: Sendable {
    package let plan: ReadPlan
    let store: Store
    private var ranges: [Range<Int>]
    private var index = 0
    private var hasher = SHA256()

    init(plan: ReadPlan, store: Store) {
        self.plan = plan
        self.store = store
        self.ranges = plan.ranges
    }

    /// The next chunk, or nil at the end.
    package mutating func next() throws -> [UInt8]? {
        guard index < ranges.count else { return nil }
        let range = ranges[index]
        index += 1
        guard let chunk = try store.get(plan.hash, range: range), chunk.count == range.count else {
            throw AssetError.blobCorrupt(plan.hash)
        }
        chunk.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        if index == ranges.count, ContentHash(hasher.finalize()) != plan.hash {
            throw AssetError.blobCorrupt(plan.hash)
        }
        return chunk
    }

    /// Every chunk, concatenated (verified).
    package mutating func readAll() throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(plan.size)
        while let chunk = try next() { out += chunk }
        return out
    }
}
