import AssetEngine
import EngineHosting
package import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
package import RPCCore
import AssetMapping

extension AssetHandlers {
    /// Put: the header is checked first (caller, name, use, hash, size against the limits
    /// and the budget); each chunk is hashed, measured and header-sniffed as it arrives
    /// (refused at the first bad one) and appended to a staging file; at the end the size
    /// and hash are checked, the file fsynced, the name journaled, and the file renamed
    /// into the store (`AssetServer.perform`) before the answer. Whatever fails, the
    /// staging file goes.
    package func put(
        request: RequestStream<GlimpseAssetV1.PutRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.PutResponse> {
        var messages = request.makeAsyncIterator()
        guard let first = try await messages.next() else {
            throw InvalidField("header", "an empty Put: the first message must carry the header").rpcError
        }
        guard case .header(let header)? = first.part else {
            throw InvalidField("header", "the first message must carry the header (name, use, sha256, size)").rpcError
        }
        let app = try await scope(header.bundleId, request.metadata)
        var session = try await begin(header, app: app)
        let upload = blobs.newUpload()
        do {
            while let message = try await messages.next() {
                switch message.part {
                case .chunk(let bytes)?:
                    do { try session.append(bytes) } catch { throw error.rpcError(at: .chunk) }
                    try blobs.stage(bytes, for: upload)
                case .header?:
                    throw InvalidField("header", "only the first message carries the header").rpcError
                case nil:
                    throw InvalidField("part", "a message with neither header nor chunk").rpcError
                }
            }
            let verified: UploadSession.Verified
            do { verified = try session.verify() } catch { throw error.rpcError(at: .end) }
            try blobs.seal(upload)
            let record = AssetWire.record(verified)
            var answer = try await submit(.put(record), upload: upload)
            if case .stored = answer, await fileMissing(verified) {
                // The file this put was deduplicated against is gone (or its commit failed):
                // journal the loss, and store these bytes in its place.
                _ = try await submit(.blobLost(verified.hash.hex))
                answer = try await submit(.put(record), upload: upload)
                if case .stored = answer, await fileMissing(verified) {
                    throw RPCError(
                        code: .internal, message: "the blob \(verified.hash) could not be stored; put it again")
                }
            }
            try? blobs.discardStaged(upload)  // a duplicate's bytes (a committed file is gone from staging)
            switch answer {
            case .stored(let outcome):
                var response = GlimpseAssetV1.PutResponse()
                response.asset = AssetWire.asset(outcome.metadata)
                response.deduplicated = outcome.deduplicated
                return ServerResponse(message: response)
            case .refused(let error):
                throw error.rpcError(at: .end)
            default:
                throw RPCError(code: .internal, message: "Put answered nothing")
            }
        } catch let error as BlobFileError {
            try? blobs.discardStaged(upload)
            throw RPCError(code: .internal, message: "staging the upload failed: \(error)")
        } catch {
            try? blobs.discardStaged(upload)
            throw error
        }
    }

    /// Whether the name still holds these bytes but their file is not there. Read on the
    /// host, where blob files change only in step with the catalog.
    func fileMissing(_ upload: UploadSession.Verified) async -> Bool {
        await host.read { [blobs] state in
            guard case .present(let metadata) = state.catalog.lookup(upload.name), metadata.hash == upload.hash else {
                return false
            }
            return !blobs.contains(upload.hash)
        }
    }

    /// Checks a Put's header and opens the catalog's upload session for it.
    func begin(_ header: GlimpseAssetV1.PutHeader, app: AppID) async throws -> UploadSession {
        let use: AssetUse
        let hash: ContentHash
        do {
            use = try AssetWire.use(header.use)
            hash = try AssetWire.hash(header.sha256)
        } catch {
            throw error.rpcError
        }
        guard header.size > 0 else {
            throw InvalidField("size", "the declared size is required: the number of bytes the chunks carry").rpcError
        }
        let size = Int(exactly: header.size) ?? .max
        let name = try name(header.name, of: app)
        let opened = await host.read {
            $0.catalog.beginUpload(name.description, use: use, expectedHash: hash, totalSize: size)
        }
        switch opened {
        case .success(let session): return session
        case .failure(let error): throw error.rpcError(at: .header)
        }
    }
}
