#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityEngine
package import EngineHosting
package import GlimpseMessages
import GlimpseRPC
import GlimpseVocabulary
import ProtoMapping
package import RPCCore
import ServiceKit
import ActivityMapping

/// `glimpse.activity.v1.ActivityService`: each call checks its caller, goes through the
/// one engine host (journaled before it is answered), and maps the manager's answer back.
/// An ActivityKit refusal (`ActivityAuthorizationError`) is FAILED_PRECONDITION naming it.
package struct ActivityHandlers: GlimpseActivityV1.ActivityService.Handler {
    package typealias Host = EngineHost<ActivityServiceState, ActivityCommand>
    let host: Host
    let feed: ActivityFeed

    package init(host: Host, feed: ActivityFeed) {
        self.host = host
        self.feed = feed
    }

    /// The app owning an activity, after checking the caller may reach it; a dismissed
    /// one is found only when `includingDismissed` (reads) says so.
    func owner(of text: String, _ caller: Caller, includingDismissed: Bool = false) async throws -> AppID {
        guard let id = ActivityID(text) else {
            throw InvalidField("activity_id", "\"\(text)\" is not an activity id (a UUID)").rpcError
        }
        guard let app = await host.read({ $0.manager.activity(id, includingDismissed: includingDismissed)?.app }) else {
            throw RPCError(code: .notFound, message: "no activity \(text)")
        }
        try caller.authorize(app)
        return app
    }

    func submit(_ input: GlimpseActivityV1.JournalRecord.Input, appToken: String = "") async throws -> ActivityAnswer {
        try await host.submit(ActivityCommand(input, appToken: appToken))
    }

    /// The most bytes of push records one ListPushes answer carries.
    static let pageBytes = 3 << 20

    static func unexpected(_ answer: ActivityAnswer) -> RPCError {
        RPCError(code: .internal, message: "unexpected answer \(answer)")
    }

    // MARK: Apps

    package func installApp(
        request: ServerRequest<GlimpseActivityV1.InstallAppRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.InstallAppResponse> {
        try await host.caller(request.metadata).requireDevice("installing an app")
        let token = Caller.newAppToken()
        _ = try await submit(.install(request.message), appToken: token)
        return ServerResponse(message: GlimpseActivityV1.InstallAppResponse(appToken: token))
    }

    package func uninstallApp(
        request: ServerRequest<GlimpseActivityV1.UninstallAppRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.UninstallAppResponse> {
        try await host.caller(request.metadata).requireDevice("uninstalling an app")
        guard case .removed(let ended) = try await submit(.uninstall(request.message)) else {
            throw Self.unexpected(.none)
        }
        return ServerResponse(message: GlimpseActivityV1.UninstallAppResponse(endedActivities: ended))
    }

    // MARK: Activities

    package func request(
        request: ServerRequest<GlimpseActivityV1.RequestActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.RequestActivityResponse> {
        try await host.caller(request.metadata).authorize(AppID(request.message.bundleId))
        let answer = try await submit(.request(request.message))
        guard case .activity(let activity) = answer else { throw Self.unexpected(answer) }
        var response = GlimpseActivityV1.RequestActivityResponse(activity: activity)
        response.watermark = feed.sequence
        return ServerResponse(message: response)
    }

    package func update(
        request: ServerRequest<GlimpseActivityV1.UpdateActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ChangeResponse> {
        _ = try await owner(of: request.message.activityId, try await host.caller(request.metadata))
        return ServerResponse(message: try await change(.update(request.message)))
    }

    package func end(
        request: ServerRequest<GlimpseActivityV1.EndActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ChangeResponse> {
        _ = try await owner(of: request.message.activityId, try await host.caller(request.metadata))
        return ServerResponse(message: try await change(.end(request.message)))
    }

    package func dismiss(
        request: ServerRequest<GlimpseActivityV1.DismissActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ChangeResponse> {
        let caller = try await host.caller(request.metadata)
        try caller.requireDevice("dismissing an activity (the user's swipe)")
        _ = try await owner(of: request.message.activityId, caller)
        return ServerResponse(message: try await change(.dismiss(request.message)))
    }

    func change(_ input: GlimpseActivityV1.JournalRecord.Input) async throws -> GlimpseActivityV1.ChangeResponse {
        let answer = try await submit(input)
        guard case .change(let response) = answer else { throw Self.unexpected(answer) }
        return response
    }

    package func getActivity(
        request: ServerRequest<GlimpseActivityV1.GetActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.Activity> {
        _ = try await owner(
            of: request.message.activityId, try await host.caller(request.metadata), includingDismissed: true)
        let id = ActivityID(request.message.activityId)
        guard let id, let activity = await host.read({ $0.manager.activity(id, includingDismissed: true)?.wire }) else {
            throw RPCError(code: .notFound, message: "no activity \(request.message.activityId)")
        }
        return ServerResponse(message: activity)
    }

    package func listActivities(
        request: ServerRequest<GlimpseActivityV1.ListActivitiesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ListActivitiesResponse> {
        let scope = try await host.caller(request.metadata).scope(requested: request.message.bundleId)
        let includeDismissed = request.message.includeDismissed
        let activities = await host.read { state in
            let all = scope.map { state.manager.activities(of: $0) } ?? state.manager.allActivities
            let dismissed = includeDismissed ? state.manager.dismissedActivities(of: scope) : []
            return (all.reversed() + dismissed).map(\.wire)
        }
        return ServerResponse(message: GlimpseActivityV1.ListActivitiesResponse(activities: activities))
    }

    package func getAuthorizationInfo(
        request: ServerRequest<GlimpseActivityV1.GetAuthorizationInfoRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.AuthorizationInfo> {
        let app = AppID(request.message.bundleId)
        try await host.caller(request.metadata).authorize(app)
        guard await host.read({ $0.apps[app] != nil }) else {
            throw RPCError(code: .notFound, message: "app \(app) is not installed")
        }
        return ServerResponse(message: await host.read { $0.authorization(app) })
    }

    // MARK: Tokens and switches

    package func rotatePushToken(
        request: ServerRequest<GlimpseActivityV1.RotatePushTokenRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.PushTokenResponse> {
        let caller = try await host.caller(request.metadata)
        try caller.requireDevice("rotating a push token")
        _ = try await owner(of: request.message.activityId, caller)
        return ServerResponse(message: try await token(.rotatePushToken(request.message)))
    }

    package func getPushToStartToken(
        request: ServerRequest<GlimpseActivityV1.PushToStartTokenRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.PushTokenResponse> {
        try await host.caller(request.metadata).authorize(AppID(request.message.bundleId))
        return ServerResponse(message: try await token(.pushToStartToken(request.message)))
    }

    package func rotatePushToStartToken(
        request: ServerRequest<GlimpseActivityV1.PushToStartTokenRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.PushTokenResponse> {
        try await host.caller(request.metadata).requireDevice("rotating a push-to-start token")
        return ServerResponse(message: try await token(.rotatePushToStartToken(request.message)))
    }

    package func getWidgetPushToken(
        request: ServerRequest<GlimpseActivityV1.WidgetPushTokenRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.PushTokenResponse> {
        try await host.caller(request.metadata).authorize(AppID(request.message.bundleId))
        return ServerResponse(message: try await token(.widgetPushToken(request.message)))
    }

    func token(_ input: GlimpseActivityV1.JournalRecord.Input) async throws -> GlimpseActivityV1.PushTokenResponse {
        let answer = try await submit(input)
        guard case .token(let token) = answer else { throw Self.unexpected(answer) }
        return GlimpseActivityV1.PushTokenResponse(pushToken: token)
    }

    package func setAppSwitches(
        request: ServerRequest<GlimpseActivityV1.SetAppSwitchesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.AuthorizationInfo> {
        try await host.caller(request.metadata).requireDevice("changing Settings switches")
        let answer = try await submit(.appSwitches(request.message))
        guard case .authorization(let info) = answer else { throw Self.unexpected(answer) }
        return ServerResponse(message: info)
    }

    // MARK: Streams and the push log

    package func watchActivities(
        request: ServerRequest<GlimpseActivityV1.WatchActivitiesRequest>,
        response: ResponseWriter<GlimpseActivityV1.ActivityChange>, context: ServerContext
    ) async throws -> Metadata {
        let scope = try await host.caller(request.metadata).scope(requested: request.message.bundleId)
        let changes = feed.subscribe()  // before the snapshot: nothing falls between the two
        let current = await host.read { state in
            let all = scope.map { state.manager.activities(of: $0) } ?? state.manager.allActivities
            return all.map { snapshot in
                var change = GlimpseActivityV1.ActivityChange()
                change.sequence = feed.sequence
                change.pushSequence = state.pushSequence
                change.at = GoogleProtobuf.Timestamp(state.manager.clock.now)
                change.activityId = snapshot.id.description
                change.bundleId = snapshot.app.rawValue
                var stateChange = GlimpseActivityV1.ActivityChange.StateChange()
                stateChange.to = snapshot.state.wire
                stateChange.reason = "current"
                change.change = .state(stateChange)
                return change
            }
        }
        try await response.write(contentsOf: current)
        do {
            for try await batch in changes {
                let visible = scope.map { app in batch.filter { $0.bundleId == app.rawValue } } ?? batch
                if !visible.isEmpty { try await response.write(contentsOf: visible) }
            }
        } catch let behind as FellBehind {
            throw behind.rpcError
        }
        return Metadata()
    }

    package func listPushes(
        request: ServerRequest<GlimpseActivityV1.ListPushesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ListPushesResponse> {
        let scope = try await host.caller(request.metadata).scope(requested: request.message.bundleId)
        let limit = request.message.limit == 0 ? 1_000 : Int(min(request.message.limit, 100_000))
        let found = try await ActivityServer.pushes(
            after: request.message.afterSequence, limit: limit, app: scope, host: host)
        // A page stays under gRPC's default 4 MiB message limit: page on with `after_sequence`.
        var pushes: [GlimpseActivityV1.PushRecord] = []
        var bytes = 0
        for record in found {
            bytes += (try? record.serializedBytes().count) ?? 0
            if bytes > Self.pageBytes, !pushes.isEmpty { break }
            pushes.append(record)
        }
        return ServerResponse(message: GlimpseActivityV1.ListPushesResponse(pushes: pushes))
    }

    // MARK: Fault injection

    package func injectFault(
        request: ServerRequest<GlimpseActivityV1.InjectFaultRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.InjectFaultResponse> {
        try await host.caller(request.metadata).requireDevice("injecting faults")
        let answer = try await submit(.injectFault(request.message))
        guard case .fault(let id) = answer else { throw Self.unexpected(answer) }
        return ServerResponse(message: GlimpseActivityV1.InjectFaultResponse(faultId: id))
    }

    package func clearFaults(
        request: ServerRequest<GlimpseActivityV1.ClearFaultsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ClearFaultsResponse> {
        try await host.caller(request.metadata).requireDevice("clearing faults")
        let answer = try await submit(.clearFaults)
        guard case .cleared(let count) = answer else { throw Self.unexpected(answer) }
        return ServerResponse(message: GlimpseActivityV1.ClearFaultsResponse(cleared: count))
    }
}
