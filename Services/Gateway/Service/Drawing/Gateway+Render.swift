#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import GlimpseMessages
internal import GlimpseVocabulary
internal import ProtoMapping
internal import Rendering
internal import RPCCore

extension Gateway {
    /// What the device shows, drawn at its real sizes: the screen as it is now (the same
    /// state `Show` answers), the apps' Live Activity views and the images they use, laid
    /// out by the renderer and written as text, SVG and the layout itself.
    func render(_ request: GlimpseGatewayV1.RenderRequest) async throws(RPCError) -> GlimpseGatewayV1.Rendering {
        let screen = await screen()
        let model = try await Self.model(request.device, own: device.screen)
        let at = now()
        let scheme: GlimpseAppV1.ColorScheme = request.colorScheme == .dark ? .dark : .light
        let presentation = try Self.presentation(request.presentation)
        // Other targets draw what the device shows; the default (lockScreen) asks for nothing else.
        if presentation != .lockScreen, request.target != .activity {
            throw RPCError(
                code: .invalidArgument,
                message:
                    "presentation: \(request.presentation) is for the activity target; the Lock Screen and the Dynamic Island show what the device shows (Activities.LongPress expands the island)"
            )
        }
        if case .unrecognized(let value) = request.target {
            throw RPCError(code: .invalidArgument, message: "target: \(value) is not a target this gateway knows")
        }

        // What will be drawn: the widgets and the activities of the target.
        var widgets: [GlimpseGatewayV1.Widget] = []
        var activityIDs: [String] = []
        let home = screen.homePages.flatMap { $0.slots.flatMap(\.widgets) }
        let lockActivities = screen.lockScreen?.activities.compactMap { $0.activity?.activityId } ?? []
        let island = screen.dynamicIsland.map { [$0.activityId, $0.detachedActivityId].filter { !$0.isEmpty } } ?? []
        switch request.target {
        case .widget:
            guard
                let widget = (home + (screen.lockScreen?.widgets ?? [])).first(where: {
                    $0.placementId == request.placementId
                })
            else {
                throw RPCError(
                    code: .notFound, message: "placement_id: no widget \(request.placementId) on this device")
            }
            widgets = [widget]
        case .homeScreen:
            guard request.page == 0 || Int(request.page) < screen.homePages.count else {
                throw RPCError(
                    code: .notFound,
                    message: "page: the Home Screen has \(screen.homePages.count) page(s); \(request.page) is not one")
            }
            widgets =
                Int(request.page) < screen.homePages.count
                ? screen.homePages[Int(request.page)].slots.flatMap(\.widgets) : []
        case .lockScreen:
            widgets = screen.lockScreen?.widgets ?? []
            activityIDs = lockActivities
        case .dynamicIsland:
            activityIDs = island
        case .activity:
            let all = await device.activities
            let id = request.activityId.isEmpty ? (island.first ?? lockActivities.first ?? "") : request.activityId
            guard !id.isEmpty, all[id] != nil else {
                throw RPCError(
                    code: .notFound,
                    message: request.activityId.isEmpty
                        ? "activity_id: no Live Activity is showing"
                        : "activity_id: no activity \(request.activityId) on this device")
            }
            activityIDs = [id]
        case .unspecified, .unrecognized:
            widgets = (screen.homePages.first?.slots.flatMap(\.widgets) ?? []) + (screen.lockScreen?.widgets ?? [])
            activityIDs = lockActivities + island
        }

        // The apps' views of those activities, and every image the trees name.
        let activities = await device.activities
        var views: [String: GlimpseWidgetV1.ActivityViews] = [:]
        var failures: [String: String] = [:]
        var asked: [GlimpseActivityV1.Activity] = []
        var endpoints: [String: String] = [:]
        for id in Set(activityIDs) {
            guard let activity = activities[id] else { continue }
            guard let endpoint = await viewsEndpoint(of: activity) else {
                failures[id] = "\(activity.bundleId) declares no endpoint for \(activity.attributesType)'s views"
                continue
            }
            asked.append(activity)
            endpoints[id] = endpoint
        }
        for (id, result) in await liveActivityViews.views(of: asked, endpoints: endpoints, now: at, scheme: scheme) {
            switch result {
            case .success(let found): views[id] = found
            case .failure(let error): failures[id] = error.message
            }
        }
        var keys = Set<AssetKey>()
        for widget in widgets {
            guard let view = widget.entry?.view else { continue }
            for name in Renderer.assetNames(in: view) { keys.insert(AssetKey(bundleID: widget.bundleId, name: name)) }
        }
        for (id, found) in views {
            let bundle = activities[id]?.bundleId ?? ""
            for view in found.trees {
                for name in Renderer.assetNames(in: view) { keys.insert(AssetKey(bundleID: bundle, name: name)) }
            }
        }
        let images = await assets.images(keys)
        let renderer = Renderer(
            environment: RenderEnvironment(
                device: model, now: at, colorScheme: scheme, assets: images, locked: screen.locked))

        let layout: GlimpseWidgetV1.Layout
        switch request.target {
        case .widget:
            layout = renderer.widget(widgets[0], mode: request.renderingMode)
        case .homeScreen:
            layout = renderer.homeScreen(screen, page: Int(request.page))
        case .lockScreen:
            layout = renderer.lockScreen(screen, views: views)
        case .dynamicIsland:
            layout = renderer.dynamicIsland(screen, views: views)
        case .activity:
            let id = activityIDs[0]
            guard let found = views[id] else {
                throw RPCError(code: .unavailable, message: failures[id] ?? "activity \(id): no views")
            }
            layout = renderer.activity(found, presentation: presentation, activity: activities[id])
        case .unspecified, .unrecognized:
            layout = LayoutBoard.sideBySide(
                [
                    renderer.homeScreen(screen, page: 0), renderer.lockScreen(screen, views: views),
                    renderer.dynamicIsland(screen, views: views),
                ], target: "screen")
        }

        var rendering = GlimpseGatewayV1.Rendering()
        let all = !request.text && !request.svg && !request.layout
        if all || request.text {
            let columns = request.columns == 0 ? nil : Int(request.columns)
            rendering.text = TextWriter.text(layout, columns: columns)
            if !failures.isEmpty {
                rendering.text += failures.sorted { $0.key < $1.key }.map { "activity \($0.key): \($0.value)\n" }
                    .joined()
            }
        }
        if all || request.svg {
            rendering.svg = SVGWriter.document(layout, assets: images, embedImages: request.embedImages)
        }
        if all || request.layout { rendering.layout = layout }
        rendering.nextChange = Self.nextChange(
            after: at, target: request.target, widgets: widgets, trees: views.values.flatMap(\.trees),
            island: screen.dynamicIsland
        ).map(GoogleProtobuf.Timestamp.init)
        return rendering
    }

    /// When a drawing of `target` next changes by itself (`Rendering.next_change`): the
    /// status bar clock's next minute (the screens that show it), an alert's expanded
    /// island folding back, a Smart Stack's relevance running out, a countdown or relative
    /// date in any tree drawn.
    static func nextChange(
        after now: Date, target: GlimpseGatewayV1.RenderRequest.Target, widgets: [GlimpseGatewayV1.Widget],
        trees: [GlimpseWidgetV1.View], island: GlimpseGatewayV1.DynamicIsland?
    ) -> Date? {
        var candidates: [Date?] = []
        switch target {
        case .widget, .activity: break
        default:
            candidates.append(Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60))
        }
        if target != .widget, target != .homeScreen { candidates.append(island?.until.map(Date.init)) }
        for widget in widgets {
            candidates.append(widget.entry?.view?.nextChange(after: now))
            if let entry = widget.entry, let relevance = entry.relevance, let duration = relevance.duration,
                let start = entry.date.map(Date.init)
            {
                candidates.append(start.addingTimeInterval(Double(duration.seconds) + Double(duration.nanos) / 1e9))
            }
        }
        for tree in trees { candidates.append(tree.nextChange(after: now)) }
        return candidates.compactMap { $0 }.filter { $0 > now }.min()
    }

    /// Where the app that owns `activity` builds its views.
    func viewsEndpoint(of activity: GlimpseActivityV1.Activity) async -> String? {
        guard let manifest = await device.apps[activity.bundleId]?.manifest else { return nil }
        let declared = manifest.activityAttributes.first { $0.typeName == activity.attributesType }?.viewsEndpoint ?? ""
        let endpoint = declared.isEmpty ? manifest.defaultEndpoint : declared
        return endpoint.isEmpty ? nil : endpoint
    }

    /// The screen model to draw for: `name`, or the device's own when it is empty.
    static func model(_ name: String, own: DeviceScreen) throws(RPCError) -> DeviceScreen {
        if name.isEmpty { return own }
        guard let model = DeviceScreen(rawValue: name) else {
            throw RPCError(
                code: .invalidArgument,
                message:
                    "device: \(name) is not one of \(DeviceScreen.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return model
    }

    static func presentation(_ name: String) throws(RPCError) -> ActivityPresentationKind {
        if name.isEmpty { return .lockScreen }
        guard let kind = ActivityPresentationKind(rawValue: name) else {
            throw RPCError(
                code: .invalidArgument,
                message:
                    "presentation: \(name) is not one of \(ActivityPresentationKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return kind
    }
}
