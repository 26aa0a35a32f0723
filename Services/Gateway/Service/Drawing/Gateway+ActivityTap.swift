internal import GlimpseMessages
internal import GlimpseRPC
internal import Rendering
internal import RPCCore

/// A tap on a Live Activity (`Activities.Tap`): found in the views the app builds for the
/// activity's content state (the same views `Render` draws), among the trees of one
/// presentation, as `Elements` finds a widget's. A Link, or the view itself (its
/// widgetURL, else the app at its root), opens a URL and logs `url_opened`. A Button or
/// Toggle on the Lock Screen or in the expanded Dynamic Island runs its
/// `LiveActivityIntent` through glimpse-intent (the app's handler updates the activity);
/// in the compact and minimal presentations nothing is interactive: a tap opens the app,
/// as the view itself.
extension Gateway {
    func tapActivity(
        _ request: GlimpseGatewayV1.ActivityTapRequest
    ) async throws(RPCError) -> GlimpseGatewayV1.ActivityTapResponse {
        let presentation = try Self.presentation(request.presentation)
        let activity = try await showingActivity(request.activityId)
        guard let endpoint = await viewsEndpoint(of: activity) else {
            throw RPCError(
                code: .failedPrecondition,
                message: "\(activity.bundleId) declares no endpoint for \(activity.attributesType)'s views")
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
        let target = "activity \(activity.activityId)"
        // Empty: the view itself, whatever it shows.
        var element = retriedElement(request.idempotencyKey, target: target)
        if element == nil, !name.isEmpty { element = try Elements.resolve(name, in: elements, hasWidgetURL: true) }
        var response = GlimpseGatewayV1.ActivityTapResponse()
        response.element = element

        let interactive = presentation == .lockScreen || presentation == .expanded
        let url: String
        switch element?.kind {
        case .link(let destination)?:
            url = destination
        case .button? where interactive, .toggle? where interactive:
            guard let element else { throw RPCError(code: .internal, message: "a tapped element went missing") }
            var perform = GlimpseIntentV1.PerformRequest()
            perform.bundleId = activity.bundleId
            perform.activityId = activity.activityId
            perform.attributesType = activity.attributesType
            let (performed, key) = try await performIntent(
                perform, of: element, key: request.idempotencyKey, target: target)
            response.performed = performed
            response.idempotencyKey = key
            response.activity = await currentActivity(activity)
            return response
        case .button?, .toggle?, nil:
            // The Dynamic Island's own widgetURL, else the Lock Screen view's, else the app's root.
            let island = presentation == .lockScreen ? "" : (views.dynamicIsland?.widgetUrl ?? "")
            let widgetURL = island.isEmpty ? views.widgetUrl : island
            url = widgetURL.isEmpty ? "\(activity.bundleId)://" : widgetURL
        }
        event(
            bundle: activity.bundleId,
            summary:
                "opened \(url) in \(activity.bundleId) (Live Activity \(activity.activityId), \(presentation.rawValue))",
            .urlOpened(.init(url: url, activityId: activity.activityId)))
        response.openedUrl = url
        return response
    }

    /// The activity as glimpse-activity has it after a tap's intent ran (its handler may
    /// have updated it), once the device shows that content too; the device's copy if
    /// glimpse-activity cannot say.
    private func currentActivity(_ activity: GlimpseActivityV1.Activity) async -> GlimpseActivityV1.Activity {
        let id = activity.activityId
        guard
            let fresh = try? await upstreams.call(
                .activity,
                { options in
                    try await upstreams.activity().getActivity(
                        ClientRequest(message: .init(activityId: id)), options: options
                    ).message
                })
        else { return await device.activities[id] ?? activity }
        _ = await device.wait(for: .activityContent(id, fresh.content), timeout: settleTimeout)
        return fresh
    }

    /// The activity `id` (empty: the most relevant one showing, as `Render` picks it).
    private func showingActivity(_ id: String) async throws(RPCError) -> GlimpseActivityV1.Activity {
        let activities = await device.activities
        var chosen = id
        if chosen.isEmpty {
            let screen = await screen()
            let island =
                screen.dynamicIsland.map { [$0.activityId, $0.detachedActivityId].filter { !$0.isEmpty } } ?? []
            chosen = island.first ?? screen.lockScreen?.activities.first?.activity?.activityId ?? ""
        }
        guard !chosen.isEmpty, let activity = activities[chosen] else {
            throw RPCError(
                code: .notFound,
                message: id.isEmpty
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
        case .compact:
            return [("compactLeading", island?.compactLeading), ("compactTrailing", island?.compactTrailing)]
        case .expanded:
            return [
                ("expandedLeading", island?.expandedLeading?.view),
                ("expandedTrailing", island?.expandedTrailing?.view),
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
