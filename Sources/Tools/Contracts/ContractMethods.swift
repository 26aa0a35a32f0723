import GlimpseMessages
import GlimpseRPC

/// Every method of the four services (and the clock each serves) a contract may call,
/// with its message types. `ContractMethodsTests` fails when a service gains a method
/// that is not here.
package enum ContractMethods {
    /// By name: `glimpse.timeline.v1.TimelineService/GetPlacement`.
    package static let byName: [String: ContractMethod] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.name, $0) })

    package static let all: [ContractMethod] = timeline + intent + activity + asset + clock

    /// The services a provider serves, by its name (`glimpse-timeline`); every one also
    /// serves `glimpse.clock.v1.Clock`.
    package static let services: [String: [String]] = [
        "glimpse-timeline": [GlimpseTimelineV1.TimelineService.name, GlimpseClockV1.Clock.name],
        "glimpse-intent": [GlimpseIntentV1.IntentService.name, GlimpseClockV1.Clock.name],
        "glimpse-activity": [GlimpseActivityV1.ActivityService.name, GlimpseClockV1.Clock.name],
        "glimpse-asset": [GlimpseAssetV1.AssetService.name, GlimpseClockV1.Clock.name],
    ]

    static let timeline: [ContractMethod] = {
        typealias S = GlimpseTimelineV1.TimelineService.Method
        typealias M = GlimpseTimelineV1
        return [
            .unary(S.installApp, M.InstallAppRequest.self, M.InstallAppResponse.self),
            .unary(S.uninstallApp, M.UninstallAppRequest.self, M.UninstallAppResponse.self),
            .unary(S.place, M.PlaceRequest.self, M.PlaceResponse.self),
            .unary(S.reconfigure, M.ReconfigureRequest.self, M.ReconfigureResponse.self),
            .unary(S.remove, M.RemoveRequest.self, M.RemoveResponse.self),
            .unary(S.reloadTimelines, M.ReloadTimelinesRequest.self, M.ReloadResponse.self),
            .unary(S.reloadAllTimelines, M.ReloadAllTimelinesRequest.self, M.ReloadResponse.self),
            .unary(S.reloadPlacement, M.ReloadPlacementRequest.self, M.ReloadResponse.self),
            .unary(
                S.getCurrentConfigurations, M.GetCurrentConfigurationsRequest.self,
                M.GetCurrentConfigurationsResponse.self),
            .unary(S.preview, M.PreviewRequest.self, M.PreviewResponse.self),
            .unary(S.setAppState, M.SetAppStateRequest.self, M.SetAppStateResponse.self),
            .unary(S.setDeviceSettings, M.SetDeviceSettingsRequest.self, M.SetDeviceSettingsResponse.self),
            .unary(S.getPlacement, M.GetPlacementRequest.self, M.PlacementStatus.self),
            .unary(S.listPlacements, M.ListPlacementsRequest.self, M.ListPlacementsResponse.self),
            .serverStreaming(S.watchEntries, M.WatchEntriesRequest.self, M.EntryChange.self),
        ]
    }()

    static let intent: [ContractMethod] = {
        typealias S = GlimpseIntentV1.IntentService.Method
        typealias M = GlimpseIntentV1
        return [
            .unary(S.registerApp, M.RegisterAppRequest.self, M.RegisterAppResponse.self),
            .unary(S.unregisterApp, M.UnregisterAppRequest.self, M.UnregisterAppResponse.self),
            .unary(S.placementAdded, M.PlacementAddedRequest.self, M.PlacementAddedResponse.self),
            .unary(S.placementRemoved, M.PlacementRemovedRequest.self, M.PlacementRemovedResponse.self),
            .unary(S.setDeviceLocked, M.SetDeviceLockedRequest.self, M.SetDeviceLockedResponse.self),
            .unary(S.perform, M.PerformRequest.self, M.PerformResponse.self),
            .unary(S.get, M.GetRequest.self, M.GetResponse.self),
            .unary(S.set, M.SetRequest.self, M.WriteResponse.self),
            .unary(S.remove, M.RemoveRequest.self, M.WriteResponse.self),
            .unary(S.compareAndSet, M.CompareAndSetRequest.self, M.WriteResponse.self),
            .unary(S.list, M.ListRequest.self, M.ListResponse.self),
            .serverStreaming(S.watch, M.WatchRequest.self, M.StoreChange.self),
        ]
    }()

    static let activity: [ContractMethod] = {
        typealias S = GlimpseActivityV1.ActivityService.Method
        typealias M = GlimpseActivityV1
        return [
            .unary(S.installApp, M.InstallAppRequest.self, M.InstallAppResponse.self),
            .unary(S.uninstallApp, M.UninstallAppRequest.self, M.UninstallAppResponse.self),
            .unary(S.request, M.RequestActivityRequest.self, M.RequestActivityResponse.self),
            .unary(S.update, M.UpdateActivityRequest.self, M.ChangeResponse.self),
            .unary(S.end, M.EndActivityRequest.self, M.ChangeResponse.self),
            .unary(S.dismiss, M.DismissActivityRequest.self, M.ChangeResponse.self),
            .unary(S.getActivity, M.GetActivityRequest.self, M.Activity.self),
            .unary(S.listActivities, M.ListActivitiesRequest.self, M.ListActivitiesResponse.self),
            .unary(S.getAuthorizationInfo, M.GetAuthorizationInfoRequest.self, M.AuthorizationInfo.self),
            .unary(S.rotatePushToken, M.RotatePushTokenRequest.self, M.PushTokenResponse.self),
            .unary(S.getPushToStartToken, M.PushToStartTokenRequest.self, M.PushTokenResponse.self),
            .unary(S.rotatePushToStartToken, M.PushToStartTokenRequest.self, M.PushTokenResponse.self),
            .unary(S.getWidgetPushToken, M.WidgetPushTokenRequest.self, M.PushTokenResponse.self),
            .unary(S.setAppSwitches, M.SetAppSwitchesRequest.self, M.AuthorizationInfo.self),
            .serverStreaming(S.watchActivities, M.WatchActivitiesRequest.self, M.ActivityChange.self),
            .unary(S.listPushes, M.ListPushesRequest.self, M.ListPushesResponse.self),
            .unary(S.injectFault, M.InjectFaultRequest.self, M.InjectFaultResponse.self),
            .unary(S.clearFaults, M.ClearFaultsRequest.self, M.ClearFaultsResponse.self),
        ]
    }()

    static let asset: [ContractMethod] = {
        typealias S = GlimpseAssetV1.AssetService.Method
        typealias M = GlimpseAssetV1
        return [
            .unary(S.registerApp, M.RegisterAppRequest.self, M.RegisterAppResponse.self),
            .unary(S.unregisterApp, M.UnregisterAppRequest.self, M.UnregisterAppResponse.self),
            .clientStreaming(S.put, M.PutRequest.self, M.PutResponse.self),
            .serverStreaming(S.get, M.GetRequest.self, M.GetResponse.self),
            .unary(S.stat, M.StatRequest.self, M.StatResponse.self),
            .unary(S.list, M.ListRequest.self, M.ListResponse.self),
            .unary(S.delete, M.DeleteRequest.self, M.DeleteResponse.self),
            .unary(S.pin, M.PinRequest.self, M.PinResponse.self),
            .unary(S.unpin, M.UnpinRequest.self, M.UnpinResponse.self),
            .unary(S.prefetch, M.PrefetchRequest.self, M.PrefetchResponse.self),
        ]
    }()

    static let clock: [ContractMethod] = {
        typealias S = GlimpseClockV1.Clock.Method
        typealias M = GlimpseClockV1
        return [
            .unary(S.now, M.NowRequest.self, M.NowResponse.self),
            .unary(S.nextDue, M.NextDueRequest.self, M.NextDueResponse.self),
            .unary(S.advanceTo, M.AdvanceToRequest.self, M.AdvanceToResponse.self),
        ]
    }()

}
