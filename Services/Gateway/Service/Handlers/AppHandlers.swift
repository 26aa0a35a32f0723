package import GlimpseMessages
import GlimpseRPC
package import RPCCore
import ServiceKit

/// The app-scope API: what an app calls where on a phone it would call the OS. The
/// gateway's app token names the app; the call goes on to the owning service with that
/// service's token for the app, and the bundle id is the token's (naming another app is
/// PERMISSION_DENIED).
extension Gateway {
    func app(_ context: ServerContext) async throws(RPCError) -> GlimpseGatewayV1.StoredApp {
        guard let token = try Caller.token(in: context.requestMetadata) else {
            throw RPCError(
                code: .unauthenticated, message: "an app's call carries its app token (authorization: Bearer …)")
        }
        return try await device.app(forToken: token)
    }

    /// The bundle id the call is about: the token's app (an empty request field means it).
    static func bundle(_ requested: String, of app: GlimpseGatewayV1.StoredApp) throws(RPCError) -> String {
        let own = app.manifest?.bundleId ?? ""
        guard requested.isEmpty || requested == own else {
            throw RPCError(code: .permissionDenied, message: "the app token of \(own) does not reach \(requested)")
        }
        return own
    }
}

package struct WidgetCenterHandler: GlimpseGatewayV1.WidgetCenter.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    package func reloadTimelines(
        request: ServerRequest<GlimpseTimelineV1.ReloadTimelinesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.ReloadResponse> {
        let app = try await gateway.app(context)
        var message = request.message
        message.bundleId = try Gateway.bundle(message.bundleId, of: app)
        message.reason = .appRequest
        return ServerResponse(message: try await gateway.reloadKind(message, token: app.timelineToken))
    }

    package func reloadAllTimelines(
        request: ServerRequest<GlimpseTimelineV1.ReloadAllTimelinesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.ReloadResponse> {
        let app = try await gateway.app(context)
        var message = request.message
        message.bundleId = try Gateway.bundle(message.bundleId, of: app)
        message.reason = .appRequest
        return ServerResponse(message: try await gateway.reloadAll(message, token: app.timelineToken))
    }

    package func getCurrentConfigurations(
        request: ServerRequest<GlimpseTimelineV1.GetCurrentConfigurationsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseTimelineV1.GetCurrentConfigurationsResponse> {
        let app = try await gateway.app(context)
        var message = request.message
        message.bundleId = try Gateway.bundle(message.bundleId, of: app)
        return ServerResponse(
            message: try await gateway.upstreams.call(.timeline) { options in
                try await gateway.upstreams.timeline().getCurrentConfigurations(
                    ClientRequest(message: message, metadata: Upstreams.bearer(app.timelineToken)), options: options
                ).message
            })
    }
}

package struct ActivityKitHandler: GlimpseGatewayV1.ActivityKit.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    /// Forwards to glimpse-activity with the app's token there.
    private func forward<T: Sendable>(
        _ context: ServerContext,
        _ body: (GlimpseActivityV1.ActivityService.Client, GlimpseGatewayV1.StoredApp, CallOptions, Metadata)
            async throws -> T
    ) async throws -> T {
        let app = try await gateway.app(context)
        let client = try gateway.upstreams.activity()
        return try await gateway.upstreams.call(.activity) { options in
            try await body(client, app, options, Upstreams.bearer(app.activityToken))
        }
    }

    package func request(
        request: ServerRequest<GlimpseActivityV1.RequestActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.RequestActivityResponse> {
        let answer = try await forward(context) { client, app, options, metadata in
            var message = request.message
            message.bundleId = try Gateway.bundle(message.bundleId, of: app)
            return try await client.request(ClientRequest(message: message, metadata: metadata), options: options)
                .message
        }
        if let activity = answer.activity { await gateway.device.learnActivity(activity) }
        // Answers once the request's changes (its state, its push token) are in the event
        // log, so an app's or a script's next call comes after them every time.
        if answer.watermark > 0 {
            _ = await gateway.device.wait(
                for: .sequence(.activity, atLeast: answer.watermark), timeout: gateway.settleTimeout)
        }
        return ServerResponse(message: answer)
    }

    package func update(
        request: ServerRequest<GlimpseActivityV1.UpdateActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ChangeResponse> {
        let answer = try await forward(context) { client, _, options, metadata in
            try await client.update(ClientRequest(message: request.message, metadata: metadata), options: options)
                .message
        }
        return ServerResponse(message: await shown(answer))
    }

    package func end(
        request: ServerRequest<GlimpseActivityV1.EndActivityRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ChangeResponse> {
        let answer = try await forward(context) { client, _, options, metadata in
            try await client.end(ClientRequest(message: request.message, metadata: metadata), options: options).message
        }
        return ServerResponse(message: await shown(answer))
    }

    /// Answers once the screen shows what the call did (reads follow writes: a
    /// `Device.Show` right after sees it), or after the settle time with what it shows.
    private func shown(_ answer: GlimpseActivityV1.ChangeResponse) async -> GlimpseActivityV1.ChangeResponse {
        if let activity = answer.activity {
            _ = await gateway.device.wait(for: .activityShows(activity), timeout: gateway.settleTimeout)
        }
        return answer
    }

    package func list(
        request: ServerRequest<GlimpseActivityV1.ListActivitiesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.ListActivitiesResponse> {
        ServerResponse(
            message: try await forward(context) { client, app, options, metadata in
                var message = request.message
                message.bundleId = try Gateway.bundle(message.bundleId, of: app)
                return try await client.listActivities(
                    ClientRequest(message: message, metadata: metadata), options: options
                ).message
            })
    }

    package func getAuthorizationInfo(
        request: ServerRequest<GlimpseActivityV1.GetAuthorizationInfoRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.AuthorizationInfo> {
        ServerResponse(
            message: try await forward(context) { client, app, options, metadata in
                var message = request.message
                message.bundleId = try Gateway.bundle(message.bundleId, of: app)
                return try await client.getAuthorizationInfo(
                    ClientRequest(message: message, metadata: metadata), options: options
                ).message
            })
    }

    package func getPushToStartToken(
        request: ServerRequest<GlimpseActivityV1.PushToStartTokenRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.PushTokenResponse> {
        ServerResponse(
            message: try await forward(context) { client, app, options, metadata in
                var message = request.message
                message.bundleId = try Gateway.bundle(message.bundleId, of: app)
                return try await client.getPushToStartToken(
                    ClientRequest(message: message, metadata: metadata), options: options
                ).message
            })
    }

    package func getWidgetPushToken(
        request: ServerRequest<GlimpseActivityV1.WidgetPushTokenRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseActivityV1.PushTokenResponse> {
        ServerResponse(
            message: try await forward(context) { client, app, options, metadata in
                var message = request.message
                message.bundleId = try Gateway.bundle(message.bundleId, of: app)
                return try await client.getWidgetPushToken(
                    ClientRequest(message: message, metadata: metadata), options: options
                ).message
            })
    }
}

package struct AppGroupHandler: GlimpseGatewayV1.AppGroup.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    /// Forwards to glimpse-intent with the app's token there (which checks the App Group).
    private func forward<T: Sendable>(
        _ context: ServerContext,
        _ body: (GlimpseIntentV1.IntentService.Client, CallOptions, Metadata) async throws -> T
    ) async throws -> T {
        let app = try await gateway.app(context)
        let client = try gateway.upstreams.intent()
        return try await gateway.upstreams.call(.intent) { options in
            try await body(client, options, Upstreams.bearer(app.intentToken))
        }
    }

    package func get(
        request: ServerRequest<GlimpseIntentV1.GetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.GetResponse> {
        ServerResponse(
            message: try await forward(context) { client, options, metadata in
                try await client.get(ClientRequest(message: request.message, metadata: metadata), options: options)
                    .message
            })
    }

    package func set(
        request: ServerRequest<GlimpseIntentV1.SetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.WriteResponse> {
        ServerResponse(
            message: try await forward(context) { client, options, metadata in
                try await client.set(ClientRequest(message: request.message, metadata: metadata), options: options)
                    .message
            })
    }

    package func remove(
        request: ServerRequest<GlimpseIntentV1.RemoveRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.WriteResponse> {
        ServerResponse(
            message: try await forward(context) { client, options, metadata in
                try await client.remove(ClientRequest(message: request.message, metadata: metadata), options: options)
                    .message
            })
    }

    package func compareAndSet(
        request: ServerRequest<GlimpseIntentV1.CompareAndSetRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.WriteResponse> {
        ServerResponse(
            message: try await forward(context) { client, options, metadata in
                try await client.compareAndSet(
                    ClientRequest(message: request.message, metadata: metadata), options: options
                ).message
            })
    }

    package func list(
        request: ServerRequest<GlimpseIntentV1.ListRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseIntentV1.ListResponse> {
        ServerResponse(
            message: try await forward(context) { client, options, metadata in
                try await client.list(ClientRequest(message: request.message, metadata: metadata), options: options)
                    .message
            })
    }
}

package struct AppLifecycleHandler: GlimpseGatewayV1.AppLifecycle.Handler {
    let gateway: Gateway
    package init(gateway: Gateway) { self.gateway = gateway }

    package func setState(
        request: ServerRequest<GlimpseGatewayV1.SetAppStateRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.SetAppStateResponse> {
        let app = try await gateway.app(context)
        var message = GlimpseTimelineV1.SetAppStateRequest()
        message.bundleId = try Gateway.bundle(request.message.bundleId, of: app)
        message.active = request.message.foreground
        _ = try await gateway.upstreams.call(.timeline) { options in
            try await gateway.upstreams.timeline().setAppState(
                ClientRequest(message: message, metadata: Upstreams.bearer(app.timelineToken)), options: options)
        }
        return ServerResponse(message: .init())
    }
}
