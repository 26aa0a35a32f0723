import ServiceKit
import ActivityEngine
import ActivityService
import Crypto
import EngineHosting
import Foundation
import GlimpseVocabulary
import GlimpseJSON
import GlimpseMessages

let start = Date(timeIntervalSince1970: 1_767_258_000)  // 2026-01-01T09:00:00Z
let app = "com.example.pizza"
let topic = "com.example.pizza.push-type.liveactivity"

/// glimpse-activity's state on an in-memory journal and a manual clock, with one app
/// installed, and its endpoint.
struct Fixture {
    let server: ActivityServer
    let appToken: String

    /// `tokenClock`: nil ages provider tokens on the service's manual clock; the executable
    /// ages them on the wall clock.
    static func make(
        authentication: APNsEndpoint.Authentication = .none, settings: ActivitySettings = .defaults,
        tokenClock: (any WallClock)? = nil, directory: URL? = nil, snapshots: SnapshotPolicy = .defaults,
        tokenIssued: (@Sendable (PushToken) -> Void)? = nil
    ) async throws -> Fixture {
        let server = try await ActivityServer.open(
            directory: directory, clock: HostClock(.manual(start: start)), settings: settings,
            authentication: authentication, outbound: .init(address: nil), tokenClock: tokenClock, snapshots: snapshots,
            tokenIssued: tokenIssued)
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = app
        manifest.activityAttributes = [GlimpseAppV1.ActivityAttributesDeclaration(typeName: "PizzaDeliveryAttributes")]
        guard
            case .installed(let token) = try await server.host.submit(
                ActivityCommand(
                    .install(GlimpseActivityV1.InstallAppRequest(manifest: manifest)), appToken: "app-token"))
        else { fatalError("not installed") }
        return Fixture(server: server, appToken: token)
    }

    /// Requests an activity with a push token; returns (id, token hex).
    func requestActivity(state: String = #"{"eta":10}"#) async throws -> (String, String) {
        var request = GlimpseActivityV1.RequestActivityRequest()
        request.bundleId = app
        request.attributesType = "PizzaDeliveryAttributes"
        request.attributesJson = #"{"order":"42"}"#
        request.content = GlimpseActivityV1.Content(stateJson: state, staleDate: nil, relevanceScore: 0)
        request.pushType = .token(true)
        guard case .activity(let activity) = try await server.host.submit(ActivityCommand(.request(request))) else {
            fatalError("not requested")
        }
        var token = activity.pushToken
        if token.isEmpty {  // the token may come a moment after the request (pushTokenDelay)
            try await server.host.advance(to: server.host.clock.now.addingTimeInterval(5))
            token =
                await server.host.read { $0.manager.activity(ActivityID(activity.activityId)!)?.pushToken?.hex } ?? ""
        }
        return (activity.activityId, token)
    }

    /// Requests an activity that follows broadcast `channel` (`.channel(id)`).
    func subscribe(to channel: String, eta: Int = 10) async throws -> GlimpseActivityV1.Activity {
        var request = GlimpseActivityV1.RequestActivityRequest()
        request.bundleId = app
        request.attributesType = "PizzaDeliveryAttributes"
        request.content = GlimpseActivityV1.Content(stateJson: #"{"eta":\#(eta)}"#, staleDate: nil, relevanceScore: 0)
        request.pushType = .channelId(channel)
        guard case .activity(let activity) = try await server.host.submit(ActivityCommand(.request(request))) else {
            fatalError("not requested")
        }
        return activity
    }

    func push(
        _ path: String, body: String, headers: [(String, String)] = [], connection: String = "c1",
        method: String = "POST"
    ) async -> APNsResponse {
        await server.endpoint.respond(
            to: APNsRequest(
                method: method, path: path, headers: headers.map { (name: $0.0, value: $0.1) }, body: Array(body.utf8),
                connection: connection))
    }

    func livePush(
        _ token: String, body: String, extra: [(String, String)] = [], connection: String = "c1"
    ) async -> APNsResponse {
        await push(
            "/3/device/\(token)", body: body,
            headers: [("apns-push-type", "liveactivity"), ("apns-topic", topic)] + extra, connection: connection)
    }

    var pushes: [GlimpseActivityV1.PushRecord] {
        get async throws { try await server.pushes(after: 0, limit: 10_000, app: nil) }
    }

    func advance(seconds: TimeInterval) async throws {
        try await server.host.advance(to: server.host.clock.now.addingTimeInterval(seconds))
    }
}

func update(_ eta: Int, at timestamp: Date) -> String {
    #"{"aps":{"timestamp":\#(Int(timestamp.timeIntervalSince1970)),"event":"update","content-state":{"eta":\#(eta)}}}"#
}

func reason(_ response: APNsResponse) -> String? {
    (try? JSONParser.parse(response.body))?["reason"]?.stringValue
}

/// A provider token as a push server makes one.
func providerToken(key: P256.Signing.PrivateKey, keyID: String, team: String, iat: String) -> String {
    func b64(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let header = b64(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
    let claims = b64(Array(#"{"iss":"\#(team)","iat":\#(iat)}"#.utf8))
    let signature = try! key.signature(for: Data("\(header).\(claims)".utf8))
    return "\(header).\(claims).\(b64(signature.rawRepresentation))"
}
