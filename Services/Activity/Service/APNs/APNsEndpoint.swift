#if canImport(FoundationEssentials)
import ServiceKit
import FoundationEssentials
#else
import Foundation
#endif
import EngineHosting
package import GlimpseVocabulary
import GlimpseJSON
import GlimpseMessages

/// One HTTP/2 request to the APNs-compatible endpoint, whatever carried it.
package struct APNsRequest: Sendable {
    package var method: String
    package var path: String
    /// Lowercase names, in order.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// The body went past the endpoint's buffer (it was cut): PayloadTooLarge.
    package var bodyTooLarge: Bool
    /// Identifies the connection (provider tokens are per connection).
    package var connection: String

    package init(
        method: String, path: String, headers: [(name: String, value: String)], body: [UInt8],
        bodyTooLarge: Bool = false, connection: String
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.connection = connection
    }

    func header(_ name: String) -> String? { headers.last(where: { $0.name == name })?.value }
}

/// The endpoint's answer: Apple's status, headers (`apns-id`, …) and body
/// (`{"reason": …}` on errors), and whether to close the connection after it (GOAWAY).
package struct APNsResponse: Sendable, Equatable {
    package var status: Int
    package var headers: [String: String]
    package var body: [UInt8]
    package var goaway: Bool
    /// The request carried a provider token the endpoint accepted: Apple's connection then
    /// carries more than one stream.
    package var tokenAccepted: Bool

    package init(
        status: Int, headers: [String: String] = [:], body: [UInt8] = [], goaway: Bool = false,
        tokenAccepted: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.goaway = goaway
        self.tokenAccepted = tokenAccepted
    }

    static func reason(_ status: Int, _ reason: String, apnsID: String? = nil) -> APNsResponse {
        APNsResponse(
            status: status, headers: apnsID.map { ["apns-id": $0] } ?? [:],
            body: JSONValue.object([JSONMember("reason", .string(reason))]).serialized())
    }
}

/// Apple's push provider API in front of glimpse-activity's engine host: `/3/device/<token>`
/// (Live Activity and widget pushes), `/4/broadcasts/apps/<bundle>` (iOS 18 broadcast) and
/// channel management under `/1/apps/<bundle>/`. Authentication is checked here, against
/// the connection; every push (refused or not) is then journaled with the verdict before
/// it is answered, so a kill -9 loses no acknowledged push and the push log shows them all.
package struct APNsEndpoint: Sendable {
    package enum Authentication: Sendable {
        /// `--apns-auth none`: no provider token needed (local use).
        case none
        case providerTokens(ProviderTokens)
    }

    let host: ActivityHandlers.Host
    let authentication: Authentication
    /// Whose time a provider token's age is measured in: APNs's, which is the wall clock
    /// even when the device runs on a manual one (push servers sign with the time of day).
    /// nil: the host's clock (tests that move one clock for both).
    let tokenClock: (any WallClock)?

    package init(host: ActivityHandlers.Host, authentication: Authentication, tokenClock: (any WallClock)? = nil) {
        self.host = host
        self.authentication = authentication
        self.tokenClock = tokenClock
    }

    /// What a request is once read: a push to journal, channel management, or a request
    /// answered before the journal (a refused channel request).
    package enum Intake: Sendable {
        case push(PushIntake)
        case channels(bundle: String, all: Bool, tokenAccepted: Bool)
        case answered(APNsResponse)
    }

    /// A push read from its request, with what its answer needs besides the journal's
    /// verdict.
    package struct PushIntake: Sendable {
        var received: GlimpseActivityV1.ReceivedPush
        var tokenAccepted: Bool
        /// A widget push: its 200 says the reload was asked of glimpse-timeline (an effect),
        /// so it is answered after its effects, not from the commit.
        package var answerFollowsEffects: Bool

        /// The push's apns-id: the one given, or a fresh one for an answer the journal did
        /// not give (glimpse-activity names a journaled push from its seed).
        var apnsID: String { received.apnsId.isEmpty ? UUID().uuidString.lowercased() : received.apnsId }

        /// The answer for the journal's result.
        func response(to result: Result<ActivityAnswer, any Error>) -> APNsResponse {
            var answer: APNsResponse
            switch result {
            case .success(.push(let status, let headers, let body, let goaway)):
                answer = APNsResponse(status: Int(status), headers: headers, body: body, goaway: goaway)
            case .success:
                answer = .reason(500, "InternalServerError", apnsID: apnsID)
            case .failure:
                // Not journaled (a closed or failed store): nothing was accepted.
                answer = .reason(503, "ServiceUnavailable", apnsID: apnsID)
            }
            answer.tokenAccepted = tokenAccepted
            return answer
        }
    }

    package func respond(to request: APNsRequest) async -> APNsResponse {
        switch intake(request) {
        case .answered(let answer):
            return answer
        case .channels(let bundle, let all, let tokenAccepted):
            var answer = await channels(request, bundle: bundle, all: all)
            answer.tokenAccepted = tokenAccepted
            return answer
        case .push(let push):
            return await respond(toPush: push)
        }
    }

    /// Journals one push and answers it after its effects (a widget push's reload asked).
    package func respond(toPush push: PushIntake) async -> APNsResponse {
        let result: Result<ActivityAnswer, any Error>
        do { result = .success(try await host.submit(ActivityCommand(.push(push.received)))) } catch {
            result = .failure(error)
        }
        return push.response(to: result)
    }

    /// Journals pushes that arrived together, in the host's next group commit, and answers
    /// them (in the order given) once they are journaled and applied, before their effects
    /// reach the watchers: the 200 waits on the store, not on the followers.
    package func respond(toPushes pushes: [PushIntake]) async -> [APNsResponse] {
        let results = await host.submit(grouped: pushes.map { ActivityCommand(.push($0.received)) })
        return zip(pushes, results).map { $0.response(to: $1) }
    }

    /// Reads `request`: authentication against its connection, then what it asks.
    package func intake(_ request: APNsRequest) -> Intake {
        // Only channel management is under /1/: a push's path is not taken apart here.
        let segments =
            request.path.hasPrefix("/1/")
            ? request.path.split(separator: "?", maxSplits: 1).first.map {
                $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            } ?? [] : []
        let isChannels =
            segments.count == 5 && segments[1] == "1" && segments[2] == "apps"
            && (segments[4] == "channels" || segments[4] == "all-channels")
        var refusal: (status: Int32, reason: String)?
        var tokenAccepted = false
        if APNsHeaders.duplicated(in: request.headers) != nil {
            // Before the token: which of two `authorization` headers would count is no
            // question to answer.
            refusal = (400, "DuplicateHeaders")
        } else if case .providerTokens(let tokens) = authentication {
            if let refused = tokens.check(
                authorization: request.header("authorization"), connection: request.connection,
                now: (tokenClock ?? host.clock).now)
            {
                refusal = (refused.status, refused.reason)
            } else {
                tokenAccepted = true
            }
        }
        if isChannels {
            if let refusal { return .answered(.reason(Int(refusal.status), refusal.reason)) }
            return .channels(bundle: segments[3], all: segments[4] == "all-channels", tokenAccepted: tokenAccepted)
        }
        var push = GlimpseActivityV1.ReceivedPush()
        push.method = request.method
        push.path = request.path
        push.headers = request.headers
            .filter { $0.name != "authorization" }  // a provider token is a secret: not journaled
            .map { GlimpseActivityV1.ReceivedPush.Header(name: $0.name, value: $0.value) }
        push.body = request.body
        push.bodyTooLarge = request.bodyTooLarge
        push.bodySize = UInt32(clamping: request.body.count)
        push.apnsId = request.header("apns-id") ?? ""
        if let refusal {
            push.refusedStatus = refusal.status
            push.refusedReason = refusal.reason
        } else if !["/3/device/", "/4/broadcasts/apps/"].contains(where: request.path.hasPrefix) {
            push.refusedStatus = 404
            push.refusedReason = "BadPath"
        }
        return .push(
            PushIntake(
                received: push, tokenAccepted: tokenAccepted,
                answerFollowsEffects: request.header("apns-push-type") == "widgets"))
    }

    /// Whether this device issued `token` (a Live Activity's, push-to-start's or widget
    /// push token, or one it retired).
    package func holds(_ token: PushToken) async -> Bool {
        await host.read { $0.holds(token) }
    }

    /// Every token this endpoint's device issued (`APNsDevices` indexes them).
    package func issuedTokens() async -> [PushToken] {
        await host.read { $0.issuedTokens() }
    }

    /// The connection closed: its provider token goes.
    package func forget(connection: String) {
        if case .providerTokens(let tokens) = authentication { tokens.forget(connection: connection) }
    }

    /// Channel management (iOS 18 broadcast): create, read, delete, list.
    func channels(_ request: APNsRequest, bundle: String, all: Bool) async -> APNsResponse {
        let app = AppID(bundle)
        guard await host.read({ $0.apps[app] != nil }) else { return .reason(400, "BadRequestParams") }
        if all {
            guard request.method == "GET" else { return .reason(405, "MethodNotAllowed") }
            let ids = await host.read { state in
                state.channels.filter { $0.value.app == app }.keys.sorted().map(\.base64)
            }
            return APNsResponse(
                status: 200,
                body: JSONValue.object([
                    JSONMember("channels", .array(ids.map { .string($0) }))
                ]).serialized())
        }
        switch request.method {
        case "POST":
            guard let body = try? JSONParser.parse(request.body),
                let policy = body["message-storage-policy"]?.doubleValue, policy == 0 || policy == 1
            else {
                return .reason(400, "BadRequestPayload")
            }
            guard body["push-type"]?.stringValue?.lowercased() == "liveactivity" else {
                return .reason(400, "MissingPushType")
            }
            var create = GlimpseActivityV1.ChannelRequest.CreateChannel()
            create.messageStoragePolicy = Int32(policy)
            var channel = GlimpseActivityV1.ChannelRequest()
            channel.bundleId = bundle
            channel.action = .create(create)
            guard case .token(let id)? = try? await host.submit(ActivityCommand(.channel(channel))) else {
                return .reason(500, "CannotCreateChannelConfig")
            }
            return APNsResponse(
                status: 201, headers: ["apns-channel-id": id, "apns-request-id": UUID().uuidString.lowercased()])
        case "GET", "DELETE":
            guard let id = request.header("apns-channel-id"), !id.isEmpty else {
                return .reason(400, "MissingChannelId")
            }
            guard let known = await host.read({ $0.channels[ChannelID(id)] }), known.app == app else {
                return .reason(400, "ChannelNotRegistered")
            }
            if request.method == "GET" {
                return APNsResponse(
                    status: 200, headers: ["apns-channel-id": id],
                    body: JSONValue.object([
                        JSONMember("message-storage-policy", .number(Int(known.messageStoragePolicy))),
                        JSONMember("push-type", .string("LiveActivity")),
                    ]).serialized())
            }
            var channel = GlimpseActivityV1.ChannelRequest()
            channel.bundleId = bundle
            channel.action = .deleteChannelId(id)
            guard (try? await host.submit(ActivityCommand(.channel(channel)))) != nil else {
                return .reason(400, "ChannelNotRegistered")
            }
            return APNsResponse(status: 204, headers: ["apns-request-id": UUID().uuidString.lowercased()])
        default:
            return .reason(405, "MethodNotAllowed")
        }
    }
}
