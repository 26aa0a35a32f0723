#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import EngineHosting
package import GlimpseMessages
import GlimpseRPC
import GlimpseVocabulary
import ProtoMapping
package import RPCCore
import ServiceKit
import TimelineEngine
import TimelineMapping

/// `glimpse.timeline.v1.TimelineService`: each call checks its caller, goes through the one
/// engine host (journaled before it is answered), and maps the engine's answer back.
package struct TimelineHandlers: GlimpseTimelineV1.TimelineService.Handler {
    package typealias Host = EngineHost<TimelineState, TimelineCommand>
    let host: Host
    let feed: EntryFeed
    /// Told of removed placements (their images' pins go); nil without glimpse-asset.
    let hints: AssetHints?
    /// How gallery previews reach the apps' providers (`preview`).
    let previews: Previews?

    /// What a gallery preview needs to call a provider: the connections, the provider
    /// timeout and the device's scale.
    package struct Previews: Sendable {
        let clients: Connections
        let timeout: TimeInterval
        let scale: Double
    }

    package init(host: Host, feed: EntryFeed, hints: AssetHints? = nil, previews: Previews? = nil) {
        self.host = host
        self.feed = feed
        self.hints = hints
        self.previews = previews
    }

    /// Publishes `changes` to the watchers and gives glimpse-asset their hints.
    func publish(_ changes: [GlimpseTimelineV1.EntryChange]) {
        feed.publish(contentsOf: changes)
        hints?.take(changes)
    }

    /// The app a placement belongs to, checked against the caller.
    func owner(of id: UInt64, _ caller: Caller) async throws -> AppID {
        guard let app = await host.read({ $0.scheduler.placement(PlacementID(id))?.app }) else {
            throw RPCError(code: .notFound, message: "no placement \(id)")
        }
        try caller.authorize(app)
        return app
    }

    package func installApp(
        request: ServerRequest<GlimpseTimelineV1.InstallAppRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.InstallAppResponse> {
        try await host.caller(request.metadata).requireDevice("installing an app")
        let token = Caller.newAppToken()
        _ = try await host.submit(TimelineCommand(.install(request.message), appToken: token))
        return ServerResponse(message: GlimpseTimelineV1.InstallAppResponse(appToken: token))
    }

    package func uninstallApp(
        request: ServerRequest<GlimpseTimelineV1.UninstallAppRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.UninstallAppResponse> {
        try await host.caller(request.metadata).authorize(AppID(request.message.bundleId))
        let answer = try await host.submit(TimelineCommand(.uninstall(request.message)))
        guard case .removed(let removed) = answer else { return ServerResponse(message: .init()) }
        publish(removed.map { Self.removal($0, app: request.message.bundleId) })
        return ServerResponse(message: GlimpseTimelineV1.UninstallAppResponse(removedPlacements: removed))
    }

    package func place(
        request: ServerRequest<GlimpseTimelineV1.PlaceRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.PlaceResponse> {
        try await host.caller(request.metadata).requireDevice("placing a widget")
        guard case .placed(let id) = try await host.submit(TimelineCommand(.place(request.message))) else {
            throw RPCError(code: .internal, message: "place answered nothing")
        }
        return ServerResponse(message: GlimpseTimelineV1.PlaceResponse(placement: try await status(of: id)))
    }

    package func reconfigure(
        request: ServerRequest<GlimpseTimelineV1.ReconfigureRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.ReconfigureResponse> {
        try await host.caller(request.metadata).requireDevice("editing a widget")
        _ = try await owner(of: request.message.placementId, .device)
        _ = try await host.submit(TimelineCommand(.reconfigure(request.message)))
        return ServerResponse(
            message: GlimpseTimelineV1.ReconfigureResponse(
                placement: try await status(of: request.message.placementId)))
    }

    package func remove(
        request: ServerRequest<GlimpseTimelineV1.RemoveRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.RemoveResponse> {
        try await host.caller(request.metadata).requireDevice("removing a widget")
        let app = try await owner(of: request.message.placementId, .device)
        _ = try await host.submit(TimelineCommand(.remove(request.message)))
        publish([Self.removal(request.message.placementId, app: app.rawValue)])
        return ServerResponse(message: GlimpseTimelineV1.RemoveResponse())
    }

    package func reloadTimelines(
        request: ServerRequest<GlimpseTimelineV1.ReloadTimelinesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.ReloadResponse> {
        let app = AppID(request.message.bundleId)
        try await host.caller(request.metadata).authorize(app)
        _ = try await host.submit(TimelineCommand(.reloadTimelines(request.message)))
        let kind = request.message.kind
        return ServerResponse(message: try await reloadResponse(app) { $0.kind == kind })
    }

    package func reloadAllTimelines(
        request: ServerRequest<GlimpseTimelineV1.ReloadAllTimelinesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.ReloadResponse> {
        let app = AppID(request.message.bundleId)
        try await host.caller(request.metadata).authorize(app)
        _ = try await host.submit(TimelineCommand(.reloadAllTimelines(request.message)))
        return ServerResponse(message: try await reloadResponse(app) { _ in true })
    }

    package func reloadPlacement(
        request: ServerRequest<GlimpseTimelineV1.ReloadPlacementRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.ReloadResponse> {
        try await host.caller(request.metadata).requireDevice("a tapped widget's reload")
        let id = request.message.placementId
        let app = try await owner(of: id, .device)
        _ = try await host.submit(TimelineCommand(.reloadPlacement(request.message)))
        return ServerResponse(message: try await reloadResponse(app) { $0.id.rawValue == id })
    }

    package func getCurrentConfigurations(
        request: ServerRequest<GlimpseTimelineV1.GetCurrentConfigurationsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.GetCurrentConfigurationsResponse> {
        let app = AppID(request.message.bundleId)
        try await host.caller(request.metadata).authorize(app)
        let widgets = await host.read { state in
            state.scheduler.placements(of: app).compactMap { id -> GlimpseTimelineV1.WidgetInfo? in
                guard let placement = state.scheduler.placement(id) else { return nil }
                return GlimpseTimelineV1.WidgetInfo(
                    kind: placement.kind, family: placement.family.wire,
                    configuration: placement.configuration.mapValues(\.wire), placementId: id.rawValue)
            }
        }
        return ServerResponse(message: GlimpseTimelineV1.GetCurrentConfigurationsResponse(widgets: widgets))
    }

    package func setAppState(
        request: ServerRequest<GlimpseTimelineV1.SetAppStateRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.SetAppStateResponse> {
        try await host.caller(request.metadata).authorize(AppID(request.message.bundleId))
        _ = try await host.submit(TimelineCommand(.appState(request.message)))
        return ServerResponse(message: GlimpseTimelineV1.SetAppStateResponse())
    }

    package func setDeviceSettings(
        request: ServerRequest<GlimpseTimelineV1.SetDeviceSettingsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.SetDeviceSettingsResponse> {
        try await host.caller(request.metadata).requireDevice("changing device settings")
        _ = try await host.submit(TimelineCommand(.deviceSettings(request.message)))
        return ServerResponse(message: GlimpseTimelineV1.SetDeviceSettingsResponse())
    }

    package func getPlacement(
        request: ServerRequest<GlimpseTimelineV1.GetPlacementRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.PlacementStatus> {
        _ = try await owner(of: request.message.placementId, try await host.caller(request.metadata))
        return ServerResponse(message: try await status(of: request.message.placementId))
    }

    package func listPlacements(
        request: ServerRequest<GlimpseTimelineV1.ListPlacementsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.ListPlacementsResponse> {
        let caller = try await host.caller(request.metadata)
        let scope = try caller.scope(requested: request.message.bundleId)
        let statuses = await host.read { state in
            let ids = scope.map { state.scheduler.placements(of: $0) } ?? state.scheduler.placementIDs
            return ids.compactMap { Self.status(of: $0, in: state) }
        }
        return ServerResponse(message: GlimpseTimelineV1.ListPlacementsResponse(placements: statuses))
    }

    package func preview(
        request: ServerRequest<GlimpseTimelineV1.PreviewRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.PreviewResponse> {
        try await host.caller(request.metadata).requireDevice("previewing widgets for the gallery")
        guard let previews else { throw RPCError(code: .unimplemented, message: "no provider connections here") }
        let message = request.message
        let app = AppID(message.bundleId)
        let family = try WidgetFamily(message.family, field: "family")
        let configuration = try TypedValue.map(message.configuration, field: "configuration")
        // The context a placement would get, with isPreview; nothing is kept.
        let (found, endpoint, now) = await host.read { state in
            let context = Result { () throws(PlacementError) -> TimelineContext in
                try state.scheduler.previewContext(
                    app: app, kind: message.kind, family: family, configuration: configuration)
            }
            return (context, state.apps[app]?.manifest.providerEndpoint(of: message.kind), state.scheduler.clock.now)
        }
        let context: TimelineContext
        switch found {
        case .success(let value): context = value
        case .failure(let error): throw error.rpcError
        }
        return ServerResponse(
            message: await ProviderCall.snapshot(
                app: app, kind: message.kind, context: context, endpoint: endpoint, clients: previews.clients,
                timeout: previews.timeout, now: now, scale: previews.scale))
    }

    package func watchEntries(
        request: ServerRequest<GlimpseTimelineV1.WatchEntriesRequest>,
        response: ResponseWriter<GlimpseTimelineV1.EntryChange>, context: ServerContext
    ) async throws -> Metadata {
        let scope = try await host.caller(request.metadata).scope(requested: request.message.bundleId)
        let changes = feed.subscribe()  // before the snapshot: nothing falls between the two
        let current = await host.read { state in
            let ids = scope.map { state.scheduler.placements(of: $0) } ?? state.scheduler.placementIDs
            return ids.compactMap { id -> GlimpseTimelineV1.EntryChange? in
                guard let placement = state.scheduler.placement(id) else { return nil }
                return GlimpseTimelineV1.EntryChange(
                    placementId: id.rawValue, bundleId: placement.app.rawValue, kind: placement.kind,
                    entry: state.scheduler.currentEntry(of: id)?.wire,
                    at: GoogleProtobuf.Timestamp(state.scheduler.clock.now), sequence: feed.sequence,
                    placeholder: state.scheduler.placeholder(of: id)?.wire)
            }
        }
        try await response.write(contentsOf: current)
        do {
            let reloads = request.message.includeReloads
            for try await batch in changes {
                var visible = scope.map { app in batch.filter { $0.bundleId == app.rawValue } } ?? batch
                if !reloads { visible.removeAll { $0.reload != nil || $0.providerError != nil || $0.unchanged } }
                if !visible.isEmpty { try await response.write(contentsOf: visible) }
            }
        } catch let behind as FellBehind {
            throw behind.rpcError
        }
        return Metadata()
    }

    // MARK: Helpers

    func status(of id: UInt64) async throws -> GlimpseTimelineV1.PlacementStatus {
        guard let status = await host.read({ Self.status(of: PlacementID(id), in: $0) }) else {
            throw RPCError(code: .notFound, message: "no placement \(id)")
        }
        return status
    }

    static func status(of id: PlacementID, in state: TimelineState) -> GlimpseTimelineV1.PlacementStatus? {
        let scheduler = state.scheduler
        guard let placement = scheduler.placement(id) else { return nil }
        var status = GlimpseTimelineV1.PlacementStatus()
        status.placementId = id.rawValue
        status.bundleId = placement.app.rawValue
        status.kind = placement.kind
        status.family = placement.family.wire
        status.screen = placement.screen == .lockScreen ? .lock : .home
        status.configuration = placement.configuration.mapValues(\.wire)
        status.currentEntry = scheduler.currentEntry(of: id)?.wire
        status.placeholder = scheduler.placeholder(of: id)?.wire
        status.timeline = scheduler.timeline(of: id)?.wire
        status.lastError = state.lastErrors[id]
        status.budget = scheduler.reloadStatus(of: id).map { budget(of: id, $0) }
        status.displaySize = scheduler.context(of: id).map { GlimpseWidgetV1.DisplaySize($0.displaySize) }
        return status
    }

    static func budget(of id: PlacementID, _ status: ReloadStatus) -> GlimpseTimelineV1.BudgetStatus {
        var budget = GlimpseTimelineV1.BudgetStatus()
        budget.placementId = id.rawValue
        budget.used = UInt32(status.used)
        budget.limit = UInt32(max(0, status.limit))
        budget.remaining = UInt32(max(0, status.limit - status.used))
        budget.windowSeconds = status.window
        budget.nextReloadAt = status.nextReloadAt.map(GoogleProtobuf.Timestamp.init)
        budget.windowFreesAt = status.windowFreesAt.map(GoogleProtobuf.Timestamp.init)
        budget.waitingFor =
            switch status.waiting {
            case .nothing: .none
            case .inFlight: .inFlight
            case .policy: .policy
            case .spacing: .spacing
            case .budget: .budget
            case .retryBackoff: .retryBackoff
            case .lowPower: .lowPower
            case .minimumInterval: .minimumInterval
            }
        return budget
    }

    func reloadResponse(
        _ app: AppID, _ matches: @Sendable (Placement) -> Bool
    ) async throws -> GlimpseTimelineV1.ReloadResponse {
        let budgets = await host.read { state in
            state.scheduler.placements(of: app).compactMap { id -> GlimpseTimelineV1.BudgetStatus? in
                guard let placement = state.scheduler.placement(id), matches(placement),
                    let status = state.scheduler.reloadStatus(of: id)
                else { return nil }
                return Self.budget(of: id, status)
            }
        }
        return GlimpseTimelineV1.ReloadResponse(placements: budgets)
    }

    static func removal(_ id: UInt64, app: String) -> GlimpseTimelineV1.EntryChange {
        var change = GlimpseTimelineV1.EntryChange()
        change.placementId = id
        change.bundleId = app
        change.removed = true
        return change
    }

}
