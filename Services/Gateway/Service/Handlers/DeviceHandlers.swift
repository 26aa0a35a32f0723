#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseMessages
import GlimpseRPC
import ProtoMapping
package import RPCCore
import ServiceKit

/// The device-scope API (scripts, tests, the CLI): no token. An app token is refused here,
/// reads included: these are the user's and the device's actions and what the device
/// shows of every app (push tokens, images, the event log), not an app's.
func requireDevice(_ context: ServerContext, _ what: String) throws(RPCError) {
    try Caller.requireDevice(context.requestMetadata, what)
}

package struct AppsHandler: GlimpseGatewayV1.Apps.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    package func install(
        request: ServerRequest<GlimpseGatewayV1.InstallRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.InstallResponse> {
        try requireDevice(context, "installing an app")
        return ServerResponse(message: try await gateway.install(request.message))
    }

    package func uninstall(
        request: ServerRequest<GlimpseGatewayV1.UninstallRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.UninstallResponse> {
        try requireDevice(context, "uninstalling an app")
        return ServerResponse(message: try await gateway.uninstall(request.message.bundleId))
    }

    package func list(
        request: ServerRequest<GlimpseGatewayV1.ListAppsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ListAppsResponse> {
        try requireDevice(context, "listing the installed apps")
        return ServerResponse(message: .init(apps: await gateway.apps()))
    }
}

package struct WidgetsHandler: GlimpseGatewayV1.Widgets.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    package func place(
        request: ServerRequest<GlimpseGatewayV1.PlaceRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.Widget> {
        try requireDevice(context, "placing a widget")
        return ServerResponse(message: try await gateway.place(request.message))
    }

    package func remove(
        request: ServerRequest<GlimpseGatewayV1.RemoveRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.RemoveResponse> {
        try requireDevice(context, "removing a widget")
        try await gateway.remove(request.message.placementId)
        return ServerResponse(message: .init())
    }

    package func gallery(
        request: ServerRequest<GlimpseGatewayV1.GalleryRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.GalleryResponse> {
        try requireDevice(context, "opening the widget gallery")
        return ServerResponse(message: try await gateway.gallery(request.message))
    }

    package func list(
        request: ServerRequest<GlimpseGatewayV1.ListWidgetsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ListWidgetsResponse> {
        try requireDevice(context, "listing the placed widgets")
        return ServerResponse(message: .init(widgets: await gateway.widgets(bundle: request.message.bundleId)))
    }

    package func get(
        request: ServerRequest<GlimpseGatewayV1.GetWidgetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.Widget> {
        try requireDevice(context, "reading a widget")
        return ServerResponse(message: try await gateway.widget(request.message.placementId, detailed: true))
    }

    package func tap(
        request: ServerRequest<GlimpseGatewayV1.TapRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.TapResponse> {
        try requireDevice(context, "tapping")
        return ServerResponse(message: try await gateway.tap(request.message))
    }

    package func reconfigure(
        request: ServerRequest<GlimpseGatewayV1.ReconfigureRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.Widget> {
        try requireDevice(context, "editing a widget")
        return ServerResponse(message: try await gateway.reconfigure(request.message))
    }

    package func reload(
        request: ServerRequest<GlimpseGatewayV1.ReloadRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.ReloadResponse> {
        try requireDevice(context, "reloading on an app's behalf")
        return ServerResponse(message: try await gateway.reload(request.message))
    }

    package func budget(
        request: ServerRequest<GlimpseGatewayV1.BudgetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.BudgetStatus> {
        try requireDevice(context, "reading a widget's budget")
        return ServerResponse(message: try await gateway.budget(request.message.placementId))
    }

    package func timeline(
        request: ServerRequest<GlimpseGatewayV1.GetWidgetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.PlacementStatus> {
        try requireDevice(context, "reading a widget's timeline")
        return ServerResponse(message: try await gateway.timeline(request.message.placementId))
    }
}

package struct DeviceHandler: GlimpseGatewayV1.Device.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    package func show(
        request: ServerRequest<GlimpseGatewayV1.ShowRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.Screen> {
        try requireDevice(context, "reading the screen")
        return ServerResponse(message: await gateway.screen())
    }

    package func render(
        request: ServerRequest<GlimpseGatewayV1.RenderRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.Rendering> {
        try requireDevice(context, "drawing the screen")
        return ServerResponse(message: try await gateway.render(request.message))
    }

    package func getSettings(
        request: ServerRequest<GlimpseGatewayV1.GetSettingsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.Settings> {
        try requireDevice(context, "reading the settings")
        return ServerResponse(message: await gateway.device.settings)
    }

    package func updateSettings(
        request: ServerRequest<GlimpseGatewayV1.UpdateSettingsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.Settings> {
        try requireDevice(context, "changing settings")
        return ServerResponse(message: try await gateway.updateSettings(request.message))
    }

    package func reset(
        request: ServerRequest<GlimpseGatewayV1.ResetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ResetResponse> {
        try requireDevice(context, "resetting the device")
        return ServerResponse(message: try await gateway.reset())
    }
}

package struct ClockHandler: GlimpseGatewayV1.Clock.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    package func now(
        request: ServerRequest<GlimpseGatewayV1.NowRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ClockState> {
        try requireDevice(context, "reading the clock conductor")
        return ServerResponse(message: gateway.conductor.clockState())
    }

    package func advance(
        request: ServerRequest<GlimpseGatewayV1.AdvanceRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ClockState> {
        try requireDevice(context, "moving the clock")
        let by = request.message.by ?? .init()
        guard by.seconds >= 0, by.nanos >= 0, by.nanos < 1_000_000_000 else {
            throw RPCError(code: .invalidArgument, message: "by: must be a non-negative duration")
        }
        return ServerResponse(
            message: try await gateway.conductor.advance(by: Double(by.seconds) + Double(by.nanos) / 1e9))
    }

    package func set(
        request: ServerRequest<GlimpseGatewayV1.SetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ClockState> {
        try requireDevice(context, "moving the clock")
        guard let to = request.message.to else { throw RPCError(code: .invalidArgument, message: "to: required") }
        return ServerResponse(message: try await gateway.conductor.set(to: Date(to)))
    }

    package func freeze(
        request: ServerRequest<GlimpseGatewayV1.FreezeRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ClockState> {
        try requireDevice(context, "freezing the clock")
        return ServerResponse(message: try gateway.conductor.freeze())
    }

    package func follow(
        request: ServerRequest<GlimpseGatewayV1.FollowRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ClockState> {
        try requireDevice(context, "following real time")
        let offset = request.message.offset.map { Double($0.seconds) + Double($0.nanos) / 1e9 }
        return ServerResponse(message: try gateway.conductor.follow(offset: offset))
    }
}

package struct ActivitiesHandler: GlimpseGatewayV1.Activities.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    package func list(
        request: ServerRequest<GlimpseGatewayV1.ListActivitiesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ListActivitiesResponse> {
        try requireDevice(context, "listing every app's Live Activities")
        var views = await gateway.activityViews(bundle: request.message.bundleId)
        if request.message.includeDismissed {
            // The device no longer has them: glimpse-activity keeps them a while.
            var list = GlimpseActivityV1.ListActivitiesRequest()
            list.bundleId = request.message.bundleId
            list.includeDismissed = true
            let all = try await gateway.upstreams.call(.activity) { options in
                try await gateway.upstreams.activity().listActivities(ClientRequest(message: list), options: options)
                    .message
            }
            views += all.activities.filter { $0.state == .dismissed }.map {
                GlimpseGatewayV1.ActivityView(activity: $0)
            }
        }
        return ServerResponse(message: .init(activities: views))
    }

    package func get(
        request: ServerRequest<GlimpseGatewayV1.GetActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ActivityView> {
        try requireDevice(context, "reading a Live Activity as the device shows it")
        let id = request.message.activityId
        let shown: Result<GlimpseGatewayV1.ActivityView, RPCError>
        do { shown = .success(try await gateway.activityView(id)) } catch { shown = .failure(error) }
        guard case .failure(let error) = shown, error.code == .notFound else {
            return ServerResponse(message: try shown.get())
        }
        // Dismissed a moment ago: glimpse-activity still knows how it was last.
        let kept = try? await gateway.upstreams.call(.activity) { options in
            try await gateway.upstreams.activity().getActivity(
                ClientRequest(message: .init(activityId: id)), options: options
            ).message
        }
        guard let kept, kept.state == .dismissed else { throw error }
        return ServerResponse(message: GlimpseGatewayV1.ActivityView(activity: kept))
    }

    package func longPress(
        request: ServerRequest<GlimpseGatewayV1.LongPressRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.Screen> {
        try requireDevice(context, "a long press")
        let id = request.message.activityId
        if !id.isEmpty { _ = try await gateway.activityView(id) }
        await gateway.device.setLongPressed(id.isEmpty ? nil : id)
        return ServerResponse(message: await gateway.screen())
    }

    package func dismiss(
        request: ServerRequest<GlimpseGatewayV1.DismissRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ActivityView> {
        try requireDevice(context, "dismissing an activity")
        let id = request.message.activityId
        let changed = try await gateway.upstreams.call(.activity) { options in
            try await gateway.upstreams.activity().dismiss(
                ClientRequest(message: .init(activityId: id)), options: options
            ).message
        }
        if let activity = changed.activity {
            // Reads follow writes: the activity has left the screen when this answers.
            _ = await gateway.device.wait(for: .activityShows(activity), timeout: gateway.settleTimeout)
        }
        var view = GlimpseGatewayV1.ActivityView()
        view.activity = changed.activity
        return ServerResponse(message: view)
    }

    package func pushes(
        request: ServerRequest<GlimpseGatewayV1.PushesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ListPushesResponse> {
        try requireDevice(context, "reading the push log")
        var list = GlimpseActivityV1.ListPushesRequest()
        list.bundleId = request.message.bundleId
        list.afterSequence = request.message.afterSequence
        list.limit = request.message.limit
        return ServerResponse(
            message: try await gateway.upstreams.call(.activity) { options in
                try await gateway.upstreams.activity().listPushes(ClientRequest(message: list), options: options)
                    .message
            })
    }
}

extension ActivitiesHandler {
    package func tap(
        request: ServerRequest<GlimpseGatewayV1.ActivityTapRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ActivityTapResponse> {
        try requireDevice(context, "tapping")
        return ServerResponse(message: try await gateway.tapActivity(request.message))
    }
}
