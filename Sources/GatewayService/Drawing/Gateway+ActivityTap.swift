internal import GlimpseMessages
internal import Rendering
internal import RPCCore

/// A tap on a Live Activity (`Activities.Tap`): found in the views the app builds for the
/// activity's content state (the same views `Render` draws), among the trees of one
/// presentation, as `Elements` finds a widget's. A Link, or the view itself (its
/// widgetURL, else the app at its root), opens a URL and logs `url_opened`; Buttons and
/// Toggles wait for glimpse-intent to run an intent without a widget placement.
extension Gateway {
    func tapActivity(_ request: GlimpseGatewayV1.ActivityTapRequest) async throws(RPCError) -> GlimpseGatewayV1.ActivityTapResponse {
        let presentation = try Self.presentation(request.presentation)
        let activity = try await showingActivity(request.activityId)
        guard let endpoint = await viewsEndpoint(of: activity) else {
            throw RPCError(code: .failedPrecondition, message: "\(activity.bundleId) declares no endpoint for \(activity.attributesType)'s views")
        }
        let views: GlimpseWidgetV1.ActivityViews
        switch await liveActivityViews.views(of: activity, endpoint: endpoint, now: now(), scheme: .light) {
        case .success(let found): views = found
        case .failure(let error): throw error
        }
        let regions = Self.regions(of: views, presentation)
        let elements = regions.flatMap { region in
            Elements.collect(region.view).map { element in
                var element = element
                if regions.count > 1 { element.path = "\(region.name)/\(element.path)" }
                return element
            }
        }
        let name = Self.qualified(request.element, in: elements)
        // Empty: the view itself, whatever it shows.
        let element = name.isEmpty ? nil : try Elements.resolve(name, in: elements, hasWidgetURL: true)

        let url: String
        switch element?.kind {
        case .link(let destination)?:
            url = destination
        case .button?, .toggle?:
            let what = Elements.listing(element.map { [$0] } ?? [])
            throw RPCError(code: .failedPrecondition, message: "Live Activity intents are not run yet: glimpse-intent runs a Button's or Toggle's intent only for a widget placement (tapped \(what))")
        case nil:
            // The Dynamic Island's own widgetURL, else the Lock Screen view's, else the app's root.
            let island = presentation == .lockScreen ? "" : (views.dynamicIsland?.widgetUrl ?? "")
            let widgetURL = island.isEmpty ? views.widgetUrl : island
            url = widgetURL.isEmpty ? "\(activity.bundleId)://" : widgetURL
        }
        event("url_opened", bundle: activity.bundleId, summary: "opened \(url) in \(activity.bundleId) (Live Activity \(activity.activityId), \(presentation.rawValue))",
              .urlOpened(.init(url: url, activityId: activity.activityId)))
        var response = GlimpseGatewayV1.ActivityTapResponse()
        response.openedUrl = url
        response.element = element
        return response
    }

    /// The activity `id` (empty: the most relevant one showing, as `Render` picks it).
    private func showingActivity(_ id: String) async throws(RPCError) -> GlimpseActivityV1.Activity {
        let activities = await device.activities
        var chosen = id
        if chosen.isEmpty {
            let screen = await screen()
            let island = screen.dynamicIsland.map { [$0.activityId, $0.detachedActivityId].filter { !$0.isEmpty } } ?? []
            chosen = island.first ?? screen.lockScreen?.activities.first?.activity?.activityId ?? ""
        }
        guard !chosen.isEmpty, let activity = activities[chosen] else {
            throw RPCError(code: .notFound, message: id.isEmpty
                ? "activity_id: no Live Activity is showing" : "activity_id: no activity \(id) on this device")
        }
        return activity
    }

    /// The view trees a presentation shows, by the region names the layout gives them.
    static func regions(
        of views: GlimpseWidgetV1.ActivityViews, _ presentation: ActivityPresentationKind
    ) -> [(name: String, view: GlimpseWidgetV1.View?)] {
        let island = views.dynamicIsland
        switch presentation {
        case .lockScreen: return [("lockScreen", views.lockScreen)]
        case .minimal: return [("minimal", island?.minimal)]
        case .compact: return [("compactLeading", island?.compactLeading), ("compactTrailing", island?.compactTrailing)]
        case .expanded:
            return [
                ("expandedLeading", island?.expandedLeading?.view), ("expandedTrailing", island?.expandedTrailing?.view),
                ("expandedCenter", island?.expandedCenter?.view), ("expandedBottom", island?.expandedBottom?.view),
            ]
        }
    }

    /// A bare path that one region's element has stands for that element's qualified path.
    static func qualified(_ name: String, in elements: [GlimpseGatewayV1.Element]) -> String {
        guard !name.isEmpty, !elements.contains(where: { $0.path == name || $0.id == name }) else { return name }
        let matches = elements.filter { $0.path.split(separator: "/").last.map(String.init) == name }
        return matches.count == 1 ? matches[0].path : name
    }
}
