#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import ActivityEngine
import Crypto
import DequeModule
package import GlimpseMessages
import GlimpseRPC
import GlimpseVocabulary
package import Logging
import ProtoMapping
package import RPCCore
import ServiceKit
import Synchronization

/// glimpse-gateway's core: the device (`DeviceState`), the services behind it
/// (`Upstreams`), the event log and the clock conductor. The handlers map the API onto
/// these operations; the followers keep the screen current.
package final class Gateway: Sendable {
    package let device: DeviceState
    package let upstreams: Upstreams
    package let log: EventLog
    package let conductor: Conductor
    package let logger: Logger
    /// How long a call waits for the screen to show its effect (a tap's reload, a new
    /// widget's first timeline) before answering with what is shown.
    package let settleTimeout: Duration
    /// The element each recent tap reached, by idempotency key: a retry of the same
    /// physical tap reaches the same Button even after the entry changed (its answer
    /// then comes from glimpse-intent's idempotency record). The last 10,000 taps.
    let recentTaps = Mutex(RecentTaps())
    private let placing = StepLock()
    /// The apps' Live Activity views and the images the screen shows, for rendering.
    let liveActivityViews: ActivityViewsSource
    let assets: AssetSource

    struct RecentTaps {
        /// Per idempotency key: what was tapped ("placement 3", "activity A1") and the element.
        var elements: [String: (String, GlimpseGatewayV1.Element)] = [:]
        var order: Deque<String> = []
        mutating func remember(_ key: String, _ target: String, _ element: GlimpseGatewayV1.Element) {
            if elements.updateValue((target, element), forKey: key) == nil { order.append(key) }
            if order.count > 10_000, let oldest = order.popFirst() { elements.removeValue(forKey: oldest) }
        }
    }

    package init(
        store: DeviceStore, upstreams: Upstreams, log: EventLog = EventLog(), clock: Conductor.Mode,
        logger: Logger, settleTimeout: Duration = .seconds(5), viewsDeadline: Duration? = nil,
        device screen: String? = nil
    ) throws {
        let device = try DeviceState(store: store, screen: screen)
        self.device = device
        self.upstreams = upstreams
        self.log = log
        self.logger = logger
        self.settleTimeout = settleTimeout
        liveActivityViews = ActivityViewsSource(
            connections: upstreams.connections, timeout: viewsDeadline ?? ActivityViewsDeadline.timeout)
        assets = AssetSource(upstreams: upstreams)
        conductor = Conductor(mode: clock, upstreams: upstreams, device: device, log: log, logger: logger)
    }

    /// The device clock's now.
    package func now() -> Date { conductor.now() }

    /// Logs what the device did. It leads: a call that changes the services holds the log
    /// while it runs (`log.hold()`), and its event goes before what they streamed meanwhile,
    /// the cause before its effects, whichever connection answered first, so a replayed
    /// script logs the same events in the same order.
    func event(bundle: String = "", summary: String, _ detail: GlimpseGatewayV1.Event.Detail) {
        log.append(
            GlimpseGatewayV1.Event(at: now(), bundleID: bundle, summary: summary, detail: detail), source: .gateway,
            leads: true)
    }

    // MARK: Apps

    package func install(
        _ request: GlimpseGatewayV1.InstallRequest
    ) async throws(RPCError) -> GlimpseGatewayV1.InstallResponse {
        log.hold()
        defer { log.release() }
        guard let manifest = request.manifest, !manifest.bundleId.isEmpty else {
            throw RPCError(code: .invalidArgument, message: "manifest.bundle_id: required")
        }
        for asset in manifest.assets where request.assetData[asset.name] == nil {
            throw RPCError(
                code: .invalidArgument,
                message:
                    "asset_data[\"\(asset.name)\"]: the manifest declares the asset (\(asset.path)) but its bytes are missing"
            )
        }
        let bundle = manifest.bundleId
        if await device.app(bundle) != nil { _ = try await uninstall(bundle, quiet: true) }
        var stored = GlimpseGatewayV1.StoredApp()
        stored.manifest = manifest
        // A device's tokens name it (`<device>.<token>`), so an app's calls reach its device.
        stored.appToken = upstreams.device.map { "\($0).\(Caller.newAppToken())" } ?? Caller.newAppToken()
        stored.installedAt = GoogleProtobuf.Timestamp(now())
        var done: [Upstreams.Service] = []
        do {
            var timeline = GlimpseTimelineV1.InstallAppRequest()
            timeline.manifest = manifest
            stored.timelineToken = try await upstreams.call(.timeline) { options in
                try await upstreams.timeline().installApp(ClientRequest(message: timeline), options: options).message
                    .appToken
            }
            done.append(.timeline)
            var intent = GlimpseIntentV1.RegisterAppRequest()
            intent.manifest = manifest
            stored.intentToken = try await upstreams.call(.intent) { options in
                try await upstreams.intent().registerApp(ClientRequest(message: intent), options: options).message
                    .appToken
            }
            done.append(.intent)
            var activity = GlimpseActivityV1.InstallAppRequest()
            activity.manifest = manifest
            stored.activityToken = try await upstreams.call(.activity) { options in
                try await upstreams.activity().installApp(ClientRequest(message: activity), options: options).message
                    .appToken
            }
            done.append(.activity)
            var asset = GlimpseAssetV1.RegisterAppRequest()
            asset.manifest = manifest
            stored.assetToken = try await upstreams.call(.asset) { options in
                try await upstreams.asset().registerApp(ClientRequest(message: asset), options: options).message
                    .appToken
            }
            done.append(.asset)
            for declaration in manifest.assets {
                try await putAsset(declaration, bytes: request.assetData[declaration.name] ?? [], bundle: bundle)
            }
            try await device.installed(stored)
        } catch {
            // All or nothing: what the services took is taken back.
            await rollBack(bundle, from: done)
            if let rpc = error as? RPCError { throw rpc }
            throw RPCError(code: .internal, message: "install \(bundle): \(error)")
        }
        event(
            bundle: bundle,
            summary: "installed \(bundle) (\(manifest.widgets.count) widget kinds, \(manifest.intents.count) intents)",
            .appInstalled(.init(displayName: manifest.displayName)))
        var response = GlimpseGatewayV1.InstallResponse()
        response.bundleId = bundle
        response.appToken = stored.appToken
        response.widgetKinds = UInt32(manifest.widgets.count)
        response.intents = UInt32(manifest.intents.count)
        response.assets = UInt32(manifest.assets.count)
        return response
    }

    private func putAsset(
        _ declaration: GlimpseAppV1.AssetDeclaration, bytes: [UInt8], bundle: String
    ) async throws(RPCError) {
        var header = GlimpseAssetV1.PutHeader()
        header.bundleId = bundle
        header.name = declaration.name
        header.use = declaration.use
        header.size = UInt64(bytes.count)
        header.sha256 = SHA256.hash(data: bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        _ = try await upstreams.call(.asset) { options in
            try await upstreams.asset().put(options: options) { writer in
                try await writer.write(GlimpseAssetV1.PutRequest(part: .header(header)))
                var offset = 0
                repeat {
                    let end = min(bytes.count, offset + 256 * 1024)
                    try await writer.write(GlimpseAssetV1.PutRequest(part: .chunk(Array(bytes[offset..<end]))))
                    offset = end
                } while offset < bytes.count
            }
        }
    }

    private func rollBack(_ bundle: String, from services: [Upstreams.Service]) async {
        for service in services {
            do {
                switch service {
                case .timeline:
                    _ = try await upstreams.timeline().uninstallApp(ClientRequest(message: .init(bundleId: bundle)))
                case .intent:
                    _ = try await upstreams.intent().unregisterApp(ClientRequest(message: .init(bundleId: bundle)))
                case .activity:
                    _ = try await upstreams.activity().uninstallApp(ClientRequest(message: .init(bundleId: bundle)))
                case .asset:
                    _ = try await upstreams.asset().unregisterApp(ClientRequest(message: .init(bundleId: bundle)))
                }
            } catch {
                logger.warning("install rollback at glimpse-\(service.rawValue) failed: \(error)")
            }
        }
    }

    package func uninstall(
        _ bundle: String, quiet: Bool = false
    ) async throws(RPCError) -> GlimpseGatewayV1.UninstallResponse {
        log.hold()
        defer { log.release() }
        guard await device.app(bundle) != nil else {
            throw RPCError(code: .notFound, message: "\(bundle) is not installed")
        }
        var response = GlimpseGatewayV1.UninstallResponse()
        let placements = await device.placements.values.filter { $0.bundleId == bundle }.map(\.placementId)
        for id in placements {
            _ = try? await upstreams.call(.intent) { options in
                try await upstreams.intent().placementRemoved(
                    ClientRequest(message: .init(placementId: id)), options: options)
            }
        }
        response.removedPlacements = try await upstreams.call(.timeline) { options in
            try await upstreams.timeline().uninstallApp(
                ClientRequest(message: .init(bundleId: bundle)), options: options
            ).message.removedPlacements
        }
        _ = try await upstreams.call(.intent) { options in
            try await upstreams.intent().unregisterApp(
                ClientRequest(message: .init(bundleId: bundle)), options: options)
        }
        response.endedActivities = try await upstreams.call(.activity) { options in
            try await upstreams.activity().uninstallApp(
                ClientRequest(message: .init(bundleId: bundle)), options: options
            ).message.endedActivities
        }
        _ = try await upstreams.call(.asset) { options in
            try await upstreams.asset().unregisterApp(ClientRequest(message: .init(bundleId: bundle)), options: options)
        }
        do { _ = try await device.uninstalled(bundle) } catch {
            throw RPCError(code: .internal, message: "the device store: \(error)")
        }
        if !quiet {
            event(bundle: bundle, summary: "uninstalled \(bundle)", .appUninstalled)
        }
        return response
    }

    package func apps() async -> [GlimpseGatewayV1.InstalledApp] {
        await device.apps.values.sorted { $0.manifest?.bundleId ?? "" < $1.manifest?.bundleId ?? "" }.map { app in
            var installed = GlimpseGatewayV1.InstalledApp()
            let manifest = app.manifest ?? .init()
            installed.bundleId = manifest.bundleId
            installed.displayName = manifest.displayName
            installed.widgetKinds = manifest.widgets.map(\.kind)
            installed.intents = manifest.intents.map(\.type)
            installed.activityAttributes = manifest.activityAttributes.map(\.typeName)
            installed.installedAt = app.installedAt
            return installed
        }
    }

    // MARK: Widgets

    package func place(_ request: GlimpseGatewayV1.PlaceRequest) async throws(RPCError) -> GlimpseGatewayV1.Widget {
        // One at a time up to the moment the device keeps the placement: two widgets
        // placed together must not be given the same slot.
        let id = try await placing.run { () async throws(RPCError) -> UInt64 in try await self.addPlacement(request) }
        // The placeholder shows at once; answer with the provider's first timeline (or its
        // error), or with the placeholder if the provider has not answered within the settle time.
        _ = await device.wait(for: .provided(id), timeout: settleTimeout)
        return try await widget(id, detailed: true)
    }

    private func addPlacement(_ request: GlimpseGatewayV1.PlaceRequest) async throws(RPCError) -> UInt64 {
        log.hold()
        defer { log.release() }
        guard await device.app(request.bundleId) != nil else {
            throw RPCError(code: .notFound, message: "bundle_id: \(request.bundleId) is not installed")
        }
        let family: WidgetFamily
        do { family = try WidgetFamily(request.family, field: "family") } catch { throw error.rpcError }
        guard await device.screen.displaySize(of: family) != nil else {
            throw RPCError(
                code: .invalidArgument, message: "family: \(family) does not exist on \(await device.screen.rawValue)")
        }
        let location = try await device.location(for: request, family: family)
        var stored = GlimpseGatewayV1.StoredPlacement()
        stored.bundleId = request.bundleId
        stored.kind = request.kind
        stored.family = request.family
        stored.location = location
        let id: UInt64
        do { id = try await device.reserve(stored) } catch {
            throw RPCError(code: .internal, message: "the device store: \(error)")
        }
        stored.placementId = id
        do {
            var place = GlimpseTimelineV1.PlaceRequest()
            place.placementId = id
            place.bundleId = request.bundleId
            place.kind = request.kind
            place.family = request.family
            place.screen = location.screen
            place.configuration = request.configuration
            let status = try await upstreams.call(.timeline) { options in
                try await upstreams.timeline().place(ClientRequest(message: place), options: options).message.placement
                    ?? .init()
            }
            var added = GlimpseIntentV1.PlacementAddedRequest()
            added.placementId = id
            added.bundleId = request.bundleId
            added.kind = request.kind
            added.family = request.family
            _ = try await upstreams.call(.intent) { options in
                try await upstreams.intent().placementAdded(ClientRequest(message: added), options: options)
            }
            stored.configuration = status.configuration
            do { try await device.placed(stored) } catch {
                throw RPCError(code: .internal, message: "the device store: \(error)")
            }
            await device.placeEnded(id)
        } catch {
            await device.placeEnded(id)
            // Not half placed: what the services took is taken back, even if this call was
            // cancelled (its caller gone); what cannot be now, the sweeper takes back later.
            let gateway = self
            await Task.detached { _ = await gateway.takeBack(id, loud: true) }.value
            throw error as? RPCError ?? RPCError(code: .internal, message: "\(error)")
        }
        event(
            bundle: request.bundleId,
            summary:
                "placed \(request.kind) (\(family)) as placement \(id) on the \(location.screen == .lock ? "Lock Screen" : "Home Screen page \(location.page)")",
            .widgetPlaced(.init(placementId: id, kind: request.kind, family: request.family, location: location)))
        return id
    }

    package func remove(_ id: UInt64) async throws(RPCError) {
        log.hold()
        defer { log.release() }
        let placement = try await device.placement(id)
        _ = try await upstreams.call(.timeline) { options in
            try await upstreams.timeline().remove(ClientRequest(message: .init(placementId: id)), options: options)
        }
        _ = try await upstreams.call(.intent) { options in
            try await upstreams.intent().placementRemoved(
                ClientRequest(message: .init(placementId: id)), options: options)
        }
        do { try await device.removePlacement(id) } catch {
            throw RPCError(code: .internal, message: "the device store: \(error)")
        }
        event(
            bundle: placement.bundleId, summary: "removed placement \(id) (\(placement.kind))",
            .widgetRemoved(.init(placementId: id)))
    }

    /// A placement as the screen shows it; `detailed` adds the budget and the last provider
    /// error from glimpse-timeline (the last known state when it is unreachable).
    package func widget(_ id: UInt64, detailed: Bool) async throws(RPCError) -> GlimpseGatewayV1.Widget {
        let placement = try await device.placement(id)
        let (entry, sequence) = await device.entry(id)
        var widget = GlimpseGatewayV1.Widget()
        widget.placementId = id
        widget.bundleId = placement.bundleId
        widget.kind = placement.kind
        widget.family = placement.family
        widget.location = placement.location
        widget.configuration = placement.configuration
        if let family = try? WidgetFamily(placement.family, field: ""),
            let size = await device.screen.displaySize(of: family)
        {
            widget.displaySize = GlimpseWidgetV1.DisplaySize(size)
        }
        // No entry yet: the app's placeholder (drawn redacted, nothing in it to tap), or the device's own.
        let placeholder = entry == nil ? await device.placeholder(id) : nil
        widget.entry = entry ?? placeholder
        widget.placeholder = entry == nil
        widget.entrySequence = sequence
        widget.elements = Elements.collect(entry?.view)
        widget.stale = await device.unreachable[.timeline] != nil
        if detailed, !widget.stale {
            if let status = try? await upstreams.call(
                .timeline, timeout: .seconds(2),
                { options in
                    try await upstreams.timeline().getPlacement(
                        ClientRequest(message: .init(placementId: id)), options: options
                    ).message
                })
            {
                widget.budget = status.budget
                widget.lastError = status.lastError
            }
        }
        return widget
    }

    package func widgets(bundle: String) async -> [GlimpseGatewayV1.Widget] {
        let ids = await device.placements.values
            .filter { bundle.isEmpty || $0.bundleId == bundle }
            .sorted { $0.addedOrder < $1.addedOrder }.map(\.placementId)
        var result: [GlimpseGatewayV1.Widget] = []
        result.reserveCapacity(ids.count)
        for id in ids {
            if let widget = try? await widget(id, detailed: false) { result.append(widget) }
        }
        AnswerBudget.fit(&result)
        return result
    }

    package func reconfigure(
        _ request: GlimpseGatewayV1.ReconfigureRequest
    ) async throws(RPCError) -> GlimpseGatewayV1.Widget {
        _ = try await device.placement(request.placementId)
        let (_, sequence) = await device.entry(request.placementId)
        var reconfigure = GlimpseTimelineV1.ReconfigureRequest()
        reconfigure.placementId = request.placementId
        reconfigure.configuration = request.configuration
        let status = try await upstreams.call(.timeline) { options in
            try await upstreams.timeline().reconfigure(ClientRequest(message: reconfigure), options: options).message
                .placement ?? .init()
        }
        do { try await device.reconfigured(request.placementId, status.configuration) } catch {
            throw RPCError(code: .internal, message: "the device store: \(error)")
        }
        _ = await device.wait(for: .entry(request.placementId, after: sequence), timeout: settleTimeout)
        return try await widget(request.placementId, detailed: true)
    }

    /// A reload request, as the app would make it (budgeted), logged with what it got. It
    /// answers once the reloads that went out now were answered by the provider (a new entry,
    /// the same one, or a failure) and those answers are in the event log, as a tap does: a
    /// script's next call then comes after them in the log every time.
    package func reload(
        _ request: GlimpseGatewayV1.ReloadRequest
    ) async throws(RPCError) -> GlimpseTimelineV1.ReloadResponse {
        let before = await device.timelineChanges
        var bundle = request.bundleId
        var kind = request.kind
        if request.placementId != 0 {
            let placement = try await device.placement(request.placementId)
            bundle = placement.bundleId
            kind = placement.kind
        }
        guard let app = await device.app(bundle) else {
            throw RPCError(code: .notFound, message: "bundle_id: \(bundle) is not installed")
        }
        let response: GlimpseTimelineV1.ReloadResponse
        if kind.isEmpty {
            var all = GlimpseTimelineV1.ReloadAllTimelinesRequest()
            all.bundleId = bundle
            all.reason = .appRequest
            response = try await reloadAll(all, token: app.timelineToken)
        } else {
            var one = GlimpseTimelineV1.ReloadTimelinesRequest()
            one.bundleId = bundle
            one.kind = kind
            one.reason = .appRequest
            response = try await reloadKind(one, token: app.timelineToken)
        }
        // A placement the request reloaded now is in flight, or answered already (then it
        // waits for its policy's date, or for nothing); one it deferred waits for spacing,
        // the budget, the minimum interval, Low Power Mode or a retry.
        // One deadline for them all: a provider that does not answer holds the call up for
        // `settleTimeout` at most, however many placements it has.
        if await device.unreachable[.timeline] == nil {
            let deadline = ContinuousClock.now + settleTimeout
            for placement in response.placements where [.inFlight, .policy, .none].contains(placement.waitingFor) {
                let left = deadline - ContinuousClock.now
                guard left > .zero,
                    await device.wait(for: .answered(placement.placementId, after: before), timeout: left)
                else { break }
            }
        }
        return response
    }

    func reloadKind(
        _ request: GlimpseTimelineV1.ReloadTimelinesRequest, token: String
    ) async throws(RPCError) -> GlimpseTimelineV1.ReloadResponse {
        log.hold()
        defer { log.release() }
        let response = try await upstreams.call(.timeline) { options in
            try await upstreams.timeline().reloadTimelines(
                ClientRequest(message: request, metadata: Upstreams.bearer(token)), options: options
            ).message
        }
        logReload(request.bundleId, "reloadTimelines(ofKind: \(request.kind))", reason: request.reason, response)
        return response
    }

    func reloadAll(
        _ request: GlimpseTimelineV1.ReloadAllTimelinesRequest, token: String
    ) async throws(RPCError) -> GlimpseTimelineV1.ReloadResponse {
        log.hold()
        defer { log.release() }
        let response = try await upstreams.call(.timeline) { options in
            try await upstreams.timeline().reloadAllTimelines(
                ClientRequest(message: request, metadata: Upstreams.bearer(token)), options: options
            ).message
        }
        logReload(request.bundleId, "reloadAllTimelines()", reason: request.reason, response)
        return response
    }

    private func logReload(
        _ bundle: String, _ call: String, reason: GlimpseTimelineV1.ReloadReason,
        _ response: GlimpseTimelineV1.ReloadResponse
    ) {
        let parts = response.placements.map { status -> String in
            let when = status.nextReloadAt.map { ISO8601.format(Date($0)) } ?? "not scheduled"
            return
                "\(status.placementId): \(status.used)/\(status.limit) used, next \(when) (\(Self.name(status.waitingFor)))"
        }
        var detail = GlimpseGatewayV1.Event.ReloadRequested()
        detail.reason = reason
        detail.placements = response.placements
        event(
            bundle: bundle,
            summary: "\(bundle) \(call): " + (parts.isEmpty ? "no placements" : parts.joined(separator: "; ")),
            .reloadRequested(detail))
    }

    static func name(_ reason: GlimpseTimelineV1.WaitReason) -> String {
        switch reason {
        case .none: "nothing wanted"
        case .policy: "waiting for the policy's date"
        case .spacing: "5-minute spacing"
        case .budget: "budget spent"
        case .retryBackoff: "retry backoff"
        case .inFlight: "provider call out"
        case .lowPower: "Low Power Mode"
        case .minimumInterval: "minimum interval"
        default: "unspecified"
        }
    }

    package func budget(_ id: UInt64) async throws(RPCError) -> GlimpseTimelineV1.BudgetStatus {
        _ = try await device.placement(id)
        return try await upstreams.call(.timeline) { options in
            try await upstreams.timeline().getPlacement(
                ClientRequest(message: .init(placementId: id)), options: options
            ).message.budget ?? .init()
        }
    }
}
