import AssetEngine
package import EngineHosting
package import GlimpseMessages
import GlimpseRPC
import GlimpseVocabulary
import ProtoMapping
package import RPCCore
import ServiceKit
import AssetMapping

/// `glimpse.asset.v1.AssetService`: each call checks its caller, reads the catalog or
/// goes through the one engine host (journaled before it is answered), and maps the
/// catalog's answer back. Put and Get stream (AssetHandlers+Put, AssetHandlers+Get).
///
/// Scopes: RegisterApp is the device's; every other call names an app, and an app token
/// reaches only that app (PERMISSION_DENIED otherwise). Names are always the named app's:
/// another app's names are not reachable by any spelling (bundle ids hold no `/`, names
/// no `.` or `..` segment).
package struct AssetHandlers: GlimpseAssetV1.AssetService.Handler {
    package typealias Host = EngineHost<AssetState, AssetCommand>
    let host: Host
    let blobs: BlobFiles
    let reads: RecentReads
    let settings: AssetSettings

    package init(host: Host, blobs: BlobFiles, reads: RecentReads, settings: AssetSettings) {
        self.host = host
        self.blobs = blobs
        self.reads = reads
        self.settings = settings
    }

    /// The app a request names, once the caller may reach it and it is registered.
    func scope(_ bundleID: String, _ metadata: Metadata) async throws -> AppID {
        let caller = try await host.caller(metadata)
        let app: AppID
        do { app = try AssetWire.app(bundleID) } catch { throw error.rpcError }
        try caller.authorize(app)
        guard await host.read({ $0.isRegistered(app) }) else {
            throw RPCError(code: .notFound, message: "bundle_id: app \(app) is not registered")
        }
        return app
    }

    /// An app-scoped name, checked.
    func name(_ text: String, of app: AppID, field: String = "name") throws(RPCError) -> AssetName {
        do { return try AssetWire.name(text, of: app, limits: settings.limits, field: field) } catch {
            throw error.rpcError
        }
    }

    /// Journals `input` with the reads since the last command, and answers. When the input
    /// is refused before anything changed, its reads are noted again for the next one.
    func submit(
        _ input: GlimpseAssetV1.JournalRecord.Input, appToken: String = "", upload: UploadID? = nil
    ) async throws -> AssetAnswer {
        let touched = reads.take()
        do {
            return try await host.submit(AssetCommand(input, appToken: appToken, touched: touched, upload: upload))
        } catch {
            reads.note(touched)
            throw error
        }
    }

    // MARK: Apps

    package func registerApp(
        request: ServerRequest<GlimpseAssetV1.RegisterAppRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.RegisterAppResponse> {
        try await host.caller(request.metadata).requireDevice("registering an app")
        let token = Caller.newAppToken()
        _ = try await submit(.registerApp(request.message), appToken: token)
        return ServerResponse(message: GlimpseAssetV1.RegisterAppResponse(appToken: token))
    }

    package func unregisterApp(
        request: ServerRequest<GlimpseAssetV1.UnregisterAppRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.UnregisterAppResponse> {
        _ = try await scope(request.message.bundleId, request.metadata)
        guard case .unregistered(let removed) = try await submit(.unregister(request.message)) else {
            throw RPCError(code: .internal, message: "UnregisterApp answered nothing")
        }
        return ServerResponse(message: GlimpseAssetV1.UnregisterAppResponse(removedNames: UInt32(clamping: removed)))
    }

    // MARK: Names

    package func stat(
        request: ServerRequest<GlimpseAssetV1.StatRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.StatResponse> {
        let app = try await scope(request.message.bundleId, request.metadata)
        let name = try name(request.message.name, of: app)
        let asset = await host.read { AssetWire.asset($0.catalog.lookup(name), pinned: $0.catalog.isPinned(name)) }
        guard let asset else { throw AssetError.unknownAsset(name).rpcError() }
        return ServerResponse(message: GlimpseAssetV1.StatResponse(asset: asset))
    }

    package func list(
        request: ServerRequest<GlimpseAssetV1.ListRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.ListResponse> {
        let app = try await scope(request.message.bundleId, request.metadata)
        let prefix = request.message.prefix
        let assets = await host.read { state in
            (state.names[app] ?? []).filter { $0.path.hasPrefix(prefix) }.sorted().compactMap { name in
                AssetWire.asset(state.catalog.lookup(name), pinned: state.catalog.isPinned(name))
            }
        }
        return ServerResponse(message: GlimpseAssetV1.ListResponse(assets: assets))
    }

    package func delete(
        request: ServerRequest<GlimpseAssetV1.DeleteRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.DeleteResponse> {
        _ = try await scope(request.message.bundleId, request.metadata)
        guard case .deleted(let blobDeleted) = try await submit(.remove(request.message)) else {
            throw RPCError(code: .internal, message: "Delete answered nothing")
        }
        return ServerResponse(message: GlimpseAssetV1.DeleteResponse(blobDeleted: blobDeleted))
    }

    // MARK: Pins and prefetch

    package func pin(
        request: ServerRequest<GlimpseAssetV1.PinRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.PinResponse> {
        _ = try await scope(request.message.bundleId, request.metadata)
        guard case .pinned(let evicted) = try await submit(.pin(request.message)) else {
            throw RPCError(code: .internal, message: "Pin answered nothing")
        }
        return ServerResponse(message: GlimpseAssetV1.PinResponse(evicted: evicted.map(\.path)))
    }

    package func unpin(
        request: ServerRequest<GlimpseAssetV1.UnpinRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.UnpinResponse> {
        _ = try await scope(request.message.bundleId, request.metadata)
        guard case .released(let count) = try await submit(.unpin(request.message)) else {
            throw RPCError(code: .internal, message: "Unpin answered nothing")
        }
        return ServerResponse(message: GlimpseAssetV1.UnpinResponse(released: UInt32(clamping: count)))
    }

    /// Read-only: the present names count as read (most recently used), like a Get, so
    /// the puts that follow evict other blobs first.
    package func prefetch(
        request: ServerRequest<GlimpseAssetV1.PrefetchRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAssetV1.PrefetchResponse> {
        let app = try await scope(request.message.bundleId, request.metadata)
        var names: [AssetName] = []
        for (i, text) in request.message.names.enumerated() {
            names.append(try name(text, of: app, field: "names[\(i)]"))
        }
        var response = GlimpseAssetV1.PrefetchResponse()
        var present: [AssetName] = []
        var seen = Set<AssetName>()
        let lookups = await host.read { state in names.map { state.catalog.lookup($0) } }
        for (name, lookup) in zip(names, lookups) where seen.insert(name).inserted {
            switch lookup {
            case .unknown: response.unknown.append(name.path)
            case .evicted: response.evicted.append(name.path)
            case .present:
                response.present.append(name.path)
                present.append(name)
            }
        }
        reads.note(present)
        return ServerResponse(message: response)
    }
}
