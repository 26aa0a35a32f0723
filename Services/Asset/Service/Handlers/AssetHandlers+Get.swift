import AssetEngine
import Crypto
import EngineHosting
package import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
package import RPCCore
import AssetMapping

extension AssetHandlers {
    /// Get: the header (the asset, and `not_modified` when the caller's ETag is current),
    /// then the blob file in chunks. A file not known to hash to its name (see
    /// `AssetSettings.readVerification`) is hashed as it streams, and the last chunk goes
    /// only when the whole matches; a missing or changed file is journaled as lost (the
    /// name becomes evicted) and answered DATA_LOSS. The ETag also goes out as the
    /// response's `etag` metadata.
    package func get(
        request: ServerRequest<GlimpseAssetV1.GetRequest>, response: ResponseWriter<GlimpseAssetV1.GetResponse>,
        context: ServerContext
    ) async throws -> Metadata {
        let message = request.message
        let app = try await scope(message.bundleId, request.metadata)
        let name = try name(message.name, of: app)
        let chunkSize = try settings.chunkSize(requested: message.chunkSize)
        var ifNoneMatch: ContentHash?
        if !message.ifNoneMatch.isEmpty {
            guard let etag = AssetWire.etag(message.ifNoneMatch) else {
                throw InvalidField("if_none_match", "expected an ETag as Get or Stat give it (\"\\\"<sha256>\\\"\")")
                    .rpcError
            }
            ifNoneMatch = etag
        }
        let (lookup, pinned) = await host.read { ($0.catalog.lookup(name), $0.catalog.isPinned(name)) }
        let metadata: AssetMetadata
        switch lookup {
        case .present(let present): metadata = present
        case .evicted(_, let hash) where ifNoneMatch == hash:
            // The caller holds the bytes the name still stands for: unchanged, though not here.
            return try await notModified(AssetWire.asset(lookup, pinned: pinned), etag: hash.etag, response)
        case .evicted(let name, let hash): throw AssetError.evicted(name, hash).rpcError()
        case .unknown(let name): throw AssetError.unknownAsset(name).rpcError()
        }
        reads.note(name)
        if ifNoneMatch == metadata.hash {
            return try await notModified(AssetWire.asset(metadata), etag: metadata.etag, response)
        }
        guard let reader = try blobs.reader(metadata.hash), reader.size == metadata.size else {
            throw try await lost(metadata, because: "is missing or not \(metadata.size) bytes")
        }
        response.setMetadata(Metadata(["etag": metadata.etag]))
        var header = GlimpseAssetV1.GetHeader()
        header.asset = AssetWire.asset(metadata)
        try await response.write(GlimpseAssetV1.GetResponse(part: .header(header)))
        let verify = settings.readVerification == .always || !blobs.isVerified(metadata.hash, reader.stamp)
        var hasher = verify ? SHA256() : nil
        var offset = 0
        while offset < metadata.size {
            let count = min(chunkSize, metadata.size - offset)
            // Room on the connection first, the chunk then: a client that stops reading
            // leaves this call waiting with nothing read.
            try await response.reserveRoom(forMessageOf: count + Self.chunkFraming)
            let chunk = try reader.read(at: offset, count: count)
            guard !chunk.isEmpty else { throw try await lost(metadata, because: "is shorter than its size") }
            offset += chunk.count
            if hasher != nil {
                chunk.withUnsafeBytes { hasher!.update(bufferPointer: $0) }
                if offset == metadata.size {
                    guard ContentHash(hasher!.finalize()) == metadata.hash else {
                        throw try await lost(metadata, because: "does not hash to its name")
                    }
                    blobs.markVerified(metadata.hash, reader.stamp)
                }
            }
            try await response.write(GlimpseAssetV1.GetResponse(part: .chunk(chunk)))
        }
        return Metadata()
    }

    /// What a chunk's message adds to its bytes on the wire, at most: the oneof's tag and
    /// length (6) and gRPC's prefix (5).
    static let chunkFraming = 16

    /// The header alone: the caller's copy is current.
    func notModified(
        _ asset: GlimpseAssetV1.Asset?, etag: String, _ response: ResponseWriter<GlimpseAssetV1.GetResponse>
    ) async throws -> Metadata {
        response.setMetadata(Metadata(["etag": etag]))
        var header = GlimpseAssetV1.GetHeader()
        header.asset = asset
        header.notModified = true
        try await response.write(GlimpseAssetV1.GetResponse(part: .header(header)))
        return Metadata()
    }

    /// The metadata of a present name, or the status for an unknown or evicted one.
    func present(_ name: AssetName) async throws -> AssetMetadata {
        switch await host.read({ $0.catalog.lookup(name) }) {
        case .present(let metadata): return metadata
        case .evicted(let name, let hash): throw AssetError.evicted(name, hash).rpcError()
        case .unknown(let name): throw AssetError.unknownAsset(name).rpcError()
        }
    }

    /// A blob file that is not what its name says: journaled as lost, so its names become
    /// evicted (and the file goes), unless the name moved on meanwhile (deleted, replaced,
    /// evicted), in which case the answer is the name's state now.
    func lost(_ metadata: AssetMetadata, because why: String) async throws -> RPCError {
        guard case .present(let now) = await host.read({ $0.catalog.lookup(metadata.name) }), now.hash == metadata.hash
        else {
            _ = try await present(metadata.name)
            return RPCError(code: .aborted, message: "name: \(metadata.name.path) changed during the Get; get it again")
        }
        _ = try await submit(.blobLost(metadata.hash.hex))
        return RPCError(
            code: .dataLoss,
            message: "the blob file of \(metadata.name.path) (\(metadata.hash)) \(why); put the asset again")
    }
}
