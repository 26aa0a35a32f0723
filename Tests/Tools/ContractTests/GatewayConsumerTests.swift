import Contracts
import Foundation
import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Testing

/// The consumer side for glimpse-gateway: its real API and followers, each of its four
/// upstreams a stub made from its contract with that upstream. Each test drives the
/// gateway paths that call one upstream and shows they work with what that contract
/// promises; a request the contract does not hold fails the test (the stub refuses it).
@Suite("glimpse-gateway works with what its contracts promise")
struct GatewayConsumerTests {
    typealias G = GlimpseGatewayV1
    static let bundle = GatewayAgainstStubs.bundle
    static func paris(_ city: String = "Paris") -> GlimpseWidgetV1.ParameterValue { .init(kind: .stringValue(city)) }

    static func place(_ g: GatewayAgainstStubs) async throws -> G.Widget {
        var place = G.PlaceRequest()
        place.bundleId = bundle
        place.kind = "ContractWidget"
        place.family = .systemSmall
        return try await g.widgets.place(ClientRequest(message: place)).message
    }

    /// The widget once its entry and status came through `WatchEntries` (within a minute).
    static func shown(_ g: GatewayAgainstStubs, placementId: UInt64) async throws -> G.Widget {
        var widget = G.Widget()
        for _ in 0..<600 {
            widget = try await g.widgets.get(ClientRequest(message: G.GetWidgetRequest(placementId: placementId)))
                .message
            if widget.lastError != nil && !widget.elements.isEmpty { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return widget
    }

    @Test("glimpse-gateway → glimpse-timeline: place, the entry, budget and last error, reloads, reconfigure, remove")
    func timeline() async throws {
        try await GatewayAgainstStubs.run { g in
            let token = try await g.install()
            let placed = try await Self.place(g)
            #expect(placed.placementId == 1)
            #expect(placed.configuration["city"] == Self.paris())
            // Place waits for the first entry a short settle time (1 s here, for the waits the
            // stubs never end); on a busy machine the entry comes later: awaited, not timed.
            let widget = try await Self.shown(g, placementId: 1)
            // The entry came through WatchEntries; its Button is tappable by id.
            #expect(widget.elements.contains { $0.id == "done" })
            #expect(widget.budget?.limit == 70 && widget.budget?.waitingFor == .retryBackoff)
            #expect(widget.lastError?.code == "UNAVAILABLE")

            var kind = GlimpseTimelineV1.ReloadTimelinesRequest()
            kind.kind = "ContractWidget"
            let reloaded = try await g.widgetCenter.reloadTimelines(GatewayAgainstStubs.app(kind, token: token)).message
            #expect(reloaded.placements.map(\.placementId) == [1])
            let all = try await g.widgetCenter.reloadAllTimelines(
                GatewayAgainstStubs.app(GlimpseTimelineV1.ReloadAllTimelinesRequest(), token: token)
            ).message
            #expect(all.placements.first?.waitingFor == .spacing)
            let configurations = try await g.widgetCenter.getCurrentConfigurations(
                GatewayAgainstStubs.app(GlimpseTimelineV1.GetCurrentConfigurationsRequest(), token: token)
            ).message
            #expect(configurations.widgets.map(\.kind) == ["ContractWidget"])
            var foreground = G.SetAppStateRequest()
            foreground.foreground = true
            _ = try await g.appLifecycle.setState(GatewayAgainstStubs.app(foreground, token: token))

            #expect(
                try await g.widgets.budget(ClientRequest(message: G.BudgetRequest(placementId: 1))).message.remaining
                    == 70)
            #expect(
                try await g.widgets.timeline(ClientRequest(message: G.GetWidgetRequest(placementId: 1))).message
                    .placementId == 1)
            var settings = G.UpdateSettingsRequest()
            settings.lowPowerMode = false
            _ = try await g.device.updateSettings(ClientRequest(message: settings))

            var reconfigure = G.ReconfigureRequest()
            reconfigure.placementId = 1
            reconfigure.configuration = ["city": Self.paris("Lyon")]
            #expect(
                try await g.widgets.reconfigure(ClientRequest(message: reconfigure)).message.configuration["city"]
                    == Self.paris("Lyon"))

            // A kind the app does not declare: glimpse-timeline's NOT_FOUND reaches the caller.
            var unknown = G.PlaceRequest()
            unknown.bundleId = Self.bundle
            unknown.kind = "NoSuchWidget"
            unknown.family = .systemSmall
            let refused = await #expect(throws: RPCError.self) {
                try await g.widgets.place(ClientRequest(message: unknown))
            }
            #expect(refused?.code == .notFound)

            _ = try await g.widgets.remove(ClientRequest(message: G.RemoveRequest(placementId: 1)))
            let uninstalled = try await g.apps.uninstall(
                ClientRequest(message: G.UninstallRequest(bundleId: Self.bundle))
            ).message
            #expect(uninstalled.removedPlacements == [1])
            g.expectNothingUnmatched()
            #expect(
                Set(g.stubs[.timeline]!.served.keys).isSuperset(of: [
                    "install-app", "place", "place-unknown-kind", "get-placement", "watch-entries", "clock-now",
                    "reload-timelines",
                    "reload-all-timelines", "get-current-configurations", "set-app-state", "set-device-settings",
                    "reconfigure",
                    "remove", "uninstall-app",
                ]))
        }
    }

    @Test(
        "glimpse-gateway → glimpse-intent: a tap performed, the App Group store, the lock, placements added and removed"
    )
    func intent() async throws {
        try await GatewayAgainstStubs.run { g in
            let token = try await g.install()
            _ = try await Self.place(g)
            let tapped = try await g.widgets.tap(ClientRequest(message: G.TapRequest(placementId: 1, element: "done")))
                .message
            guard case .performed(let performed)? = tapped.result, case .performed? = performed.result else {
                Issue.record("the tap was not performed: \(tapped)")
                return
            }
            #expect(performed.reloadedPlacements == [1] && !performed.replayed)

            let group = "group.contracts.gateway.\(GatewayAgainstStubs.run)"
            let done = GlimpseWidgetV1.ParameterValue(kind: .boolValue(true))
            #expect(
                try await g.appGroup.set(
                    GatewayAgainstStubs.app(
                        GlimpseIntentV1.SetRequest(appGroup: group, key: "done", value: done), token: token)
                ).message.sequence == 1)
            let entry = try await g.appGroup.get(
                GatewayAgainstStubs.app(GlimpseIntentV1.GetRequest(appGroup: group, key: "done"), token: token)
            ).message.entry
            #expect(entry?.value == done && entry?.version == 1)
            #expect(
                try await g.appGroup.list(
                    GatewayAgainstStubs.app(GlimpseIntentV1.ListRequest(appGroup: group), token: token)
                ).message.entries.count == 1)
            #expect(
                try await g.appGroup.remove(
                    GatewayAgainstStubs.app(GlimpseIntentV1.RemoveRequest(appGroup: group, key: "done"), token: token)
                ).message.sequence == 2)
            var stale = GlimpseIntentV1.CompareAndSetRequest(
                appGroup: group, key: "done", value: .init(kind: .boolValue(false)))
            stale.expectedVersion = 0
            let aborted = await #expect(throws: RPCError.self) {
                try await g.appGroup.compareAndSet(GatewayAgainstStubs.app(stale, token: token))
            }
            #expect(aborted?.code == .aborted)
            let denied = await #expect(throws: RPCError.self) {
                try await g.appGroup.get(
                    GatewayAgainstStubs.app(
                        GlimpseIntentV1.GetRequest(appGroup: "group.not.\(GatewayAgainstStubs.run)", key: "done"),
                        token: token))
            }
            #expect(denied?.code == .permissionDenied)

            var unlocked = G.UpdateSettingsRequest()
            unlocked.locked = false
            #expect(try await g.device.updateSettings(ClientRequest(message: unlocked)).message.locked == false)
            _ = try await g.widgets.remove(ClientRequest(message: G.RemoveRequest(placementId: 1)))
            _ = try await g.apps.uninstall(ClientRequest(message: G.UninstallRequest(bundleId: Self.bundle)))
            g.expectNothingUnmatched()
            #expect(
                Set(g.stubs[.intent]!.served.keys).isSuperset(of: [
                    "register-app", "placement-added", "perform", "app-group-set", "app-group-get", "app-group-list",
                    "app-group-remove",
                    "app-group-compare-and-set-stale", "app-group-not-declared", "set-device-locked",
                    "placement-removed", "unregister-app",
                ]))
        }
    }

    @Test(
        "glimpse-gateway → glimpse-activity: an activity requested, followed, updated, ended, dismissed; tokens, switches, pushes"
    )
    func activity() async throws {
        try await GatewayAgainstStubs.run { g in
            let token = try await g.install()
            // The followers: the opening list, then WatchActivities' content change, on screen.
            var shown: GlimpseActivityV1.Activity?
            for _ in 0..<100 {
                shown = try? await g.activities.get(ClientRequest(message: G.GetActivityRequest(activityId: "A1")))
                    .message.activity
                if shown?.content?.stateJson == #"{"step":2}"# { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(shown?.content?.stateJson == #"{"step":2}"# && shown?.state == .active)

            var request = GlimpseActivityV1.RequestActivityRequest()
            request.attributesType = "ContractAttributes"
            request.attributesJson = #"{"name":"contract"}"#
            request.content = .init(stateJson: #"{"step":1}"#)
            let started = try await g.activityKit.request(GatewayAgainstStubs.app(request, token: token)).message
            #expect(started.activity?.activityId == "A1" && started.activity?.state == .active)
            let listed = try await g.activityKit.list(
                GatewayAgainstStubs.app(GlimpseActivityV1.ListActivitiesRequest(), token: token)
            ).message
            #expect(listed.activities.map(\.activityId) == ["A1"])

            let update = GlimpseActivityV1.UpdateActivityRequest(
                activityId: "A1", content: .init(stateJson: #"{"step":2}"#))
            #expect(
                try await g.activityKit.update(GatewayAgainstStubs.app(update, token: token)).message.outcome?.kind
                    == .applied)
            #expect(
                try await g.activityKit.end(
                    GatewayAgainstStubs.app(GlimpseActivityV1.EndActivityRequest(activityId: "A1"), token: token)
                ).message.activity?.state == .ended)
            #expect(
                try await g.activityKit.getAuthorizationInfo(
                    GatewayAgainstStubs.app(GlimpseActivityV1.GetAuthorizationInfoRequest(), token: token)
                ).message.areActivitiesEnabled)
            var pushToStart = GlimpseActivityV1.PushToStartTokenRequest()
            pushToStart.attributesType = "ContractAttributes"
            #expect(
                try await !g.activityKit.getPushToStartToken(GatewayAgainstStubs.app(pushToStart, token: token)).message
                    .pushToken.isEmpty)
            #expect(
                try await !g.activityKit.getWidgetPushToken(
                    GatewayAgainstStubs.app(GlimpseActivityV1.WidgetPushTokenRequest(), token: token)
                ).message.pushToken.isEmpty)
            #expect(try await g.activities.pushes(ClientRequest(message: G.PushesRequest())).message.pushes.isEmpty)
            var off = G.UpdateSettingsRequest()
            off.bundleId = Self.bundle
            off.liveActivitiesEnabled = false
            #expect(
                try await g.device.updateSettings(ClientRequest(message: off)).message.appSwitches[Self.bundle]?
                    .areActivitiesEnabled == false)
            _ = try await g.activities.dismiss(ClientRequest(message: G.DismissRequest(activityId: "A1")))
            let uninstalled = try await g.apps.uninstall(
                ClientRequest(message: G.UninstallRequest(bundleId: Self.bundle))
            ).message
            #expect(uninstalled.endedActivities == ["A1"])
            g.expectNothingUnmatched()
            #expect(
                Set(g.stubs[.activity]!.served.keys).isSuperset(of: [
                    "install-app", "request", "list-activities", "list-activities-app", "watch-activities", "update",
                    "end", "get-authorization-info",
                    "get-push-to-start-token", "get-widget-push-token", "list-pushes", "set-app-switches", "dismiss",
                    "uninstall-app",
                ]))
        }
    }

    @Test(
        "glimpse-gateway → glimpse-asset: an install puts the poster, drawing embeds it; a refused put rolls the install back"
    )
    func asset() async throws {
        try await GatewayAgainstStubs.run { g in
            _ = try await g.install()
            _ = try await Self.place(g)
            var render = G.RenderRequest()
            render.target = .widget
            render.placementId = 1
            render.svg = true
            render.embedImages = true
            let svg = try await g.device.render(ClientRequest(message: render)).message.svg
            let put = try #require(g.contracts.between("glimpse-gateway", "glimpse-asset").first { $0.name == "put" })
            let poster = try #require(
                try put.call.requests(Variables(run: GatewayAgainstStubs.run))[1]["chunk"]?.stringValue)
            #expect(svg.contains("data:image/png;base64,\(poster)"))
            _ = try await g.apps.uninstall(ClientRequest(message: G.UninstallRequest(bundleId: Self.bundle)))

            // Bytes that are no image: glimpse-asset's INVALID_ARGUMENT reaches the caller,
            // and what the other services took is given back.
            let refusedPut = try #require(
                g.contracts.between("glimpse-gateway", "glimpse-asset").first { $0.name == "put-not-an-image" })
            let junk = try #require(
                try refusedPut.call.requests(Variables(run: GatewayAgainstStubs.run))[1]["chunk"]?.stringValue)
            let manifest = try GlimpseAppV1.AppManifest(
                protoJSONValue: try #require(try g.request(.timeline, "install-app")["manifest"]), path: "",
                ignoringUnknownFields: false)
            let install = G.InstallRequest(
                manifest: manifest, assetData: ["posters/contract": [UInt8](try #require(Data(base64Encoded: junk)))])
            let refused = await #expect(throws: RPCError.self) {
                try await g.apps.install(ClientRequest(message: install))
            }
            #expect(refused?.code == .invalidArgument)
            g.expectNothingUnmatched()
            #expect(
                Set(g.stubs[.asset]!.served.keys).isSuperset(of: [
                    "register-app", "put", "get", "put-not-an-image", "unregister-app",
                ]))
        }
    }
}
