import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseJSON
package import GlimpseMessages
import GlimpseRPC
import HTTP2
import RPCCore

struct Push: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a push to glimpse-activity's APNs-compatible endpoint, as a push server would.",
        discussion: """
            POSTs the payload over HTTP/2 (h2c with prior knowledge on 127.0.0.1:7444 by \
            default; TLS with --tls, on 127.0.0.1:7443 unless --apns-address says otherwise, \
            trusting --ca) to /3/device/<token>, or with --broadcast to \
            /4/broadcasts/apps/<bundle> with apns-channel-id. Prints Apple's status, reason \
            and the apns-id; a status other than 2xx exits 1.

            The target is a device token (hex), an activity id or a bundle id: for an activity \
            the token is its push token (also of one dismissed within the hour: APNs then \
            answers 410 Unregistered, as it does a push server); for a bundle it is looked \
            up at the gateway (its only Live Activity with a push token; for --push-type \
            widgets the app's widget push token, which needs --app-token). Without --topic the \
            topic is <bundle>.push-type.liveactivity (or .widgets; the bundle for alert and \
            background), the bundle found at the gateway for a token.

            --key TEAMID:KEYID:AuthKey.p8 signs an ES256 provider token (kid, iss, iat) and \
            sends `authorization: bearer <jwt>`; iat is the time of day, as a push server \
            signs (glimpse-activity checks tokens against the time of day, whatever the \
            device's clock), unless --iat gives it.
            """)

    enum PushType: String, ExpressibleByArgument, CaseIterable, Sendable {
        case liveactivity, alert, background, widgets

        var topicSuffix: String {
            switch self {
            case .liveactivity: ".push-type.liveactivity"
            case .widgets: ".push-type.widgets"
            case .alert, .background: ""
            }
        }
    }

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp(
            "A device token (hex), an activity id, or a bundle id.", valueName: "device-token-activity-or-bundle"))
    var target: String

    @Argument(help: ArgumentHelp("The JSON payload file.", valueName: "payload.json"))
    var payload: String

    @Option(name: .customLong("push-type"), help: "apns-push-type.")
    var pushType: PushType = .liveactivity

    @Option(help: ArgumentHelp("apns-topic (default: from the bundle and the push type).", valueName: "topic"))
    var topic: String?

    @Option(help: ArgumentHelp("apns-priority: 5 or 10 (default 10; 5 for background).", valueName: "5|10"))
    var priority: Int?

    @Option(
        name: .customLong("apns-address"),
        help: ArgumentHelp(
            "The endpoint (default 127.0.0.1:7444, or 127.0.0.1:7443 with --tls).", valueName: "host:port"))
    var apnsAddress: String?

    @Flag(help: "Use TLS (ALPN h2) instead of h2c.")
    var tls = false

    @Option(
        help: ArgumentHelp(
            "The CA to trust with --tls (PEM), e.g. the data directory's tls/ca.pem.", valueName: "ca.pem"))
    var ca: String?

    @Option(help: ArgumentHelp("Sign a provider token with this key.", valueName: "TEAMID:KEYID:path.p8"))
    var key: String?

    @Option(
        help: ArgumentHelp(
            "The token's iat: seconds since 1970 or ISO 8601 (default: the time of day).", valueName: "time"))
    var iat: String?

    @Flag(help: "A broadcast push: the target is the bundle id; needs --channel.")
    var broadcast = false

    @Option(help: ArgumentHelp("apns-channel-id of the broadcast channel (base64).", valueName: "id"))
    var channel: String?

    @Option(help: ArgumentHelp("apns-expiration (seconds since 1970; 0: deliver now or never).", valueName: "seconds"))
    var expiration: String?

    @Option(name: .customLong("collapse-id"), help: ArgumentHelp("apns-collapse-id.", valueName: "id"))
    var collapseID: String?

    @Option(
        name: .customLong("app-token"),
        help: ArgumentHelp(
            "The app's token, to look up its widget push token (--push-type widgets with a bundle).", valueName: "token"
        ))
    var appToken: String?

    func validate() throws {
        if target.isEmpty { throw ValidationError("the target is empty: give a device token or a bundle id") }
        if let priority, ![1, 5, 10].contains(priority) { throw ValidationError("--priority must be 5 or 10 (or 1)") }
        if ca != nil, !tls { throw ValidationError("--ca goes with --tls") }
        if broadcast {
            guard channel != nil else { throw ValidationError("--broadcast needs --channel <apns-channel-id>") }
            guard pushType == .liveactivity else { throw ValidationError("a broadcast is a liveactivity push") }
            guard !PushTarget.isDeviceToken(target) else {
                throw ValidationError("with --broadcast the target is the bundle id")
            }
        }
        if let key {
            do { _ = try ProviderToken.KeySpec(parsing: key) } catch {
                throw ValidationError(error.description.dropFirst("error: ".count).description)
            }
        }
        if let iat, PushTarget.parseTime(iat) == nil {
            throw ValidationError("--iat: expected seconds since 1970 or an ISO 8601 date, got \"\(iat)\"")
        }
        if let apnsAddress {
            do { _ = try HostPort(parsing: apnsAddress, what: "--apns-address") } catch {
                throw ValidationError(error.description.dropFirst("error: ".count).description)
            }
        }
    }

    func run() async throws {
        let context = global.context
        let body: [UInt8]
        do { body = try Files.read(payload) } catch { throw CLIFailure.usage("cannot read the payload: \(error)") }
        do { _ = try JSONParser.parse(body) } catch { throw CLIFailure.usage("\(payload): \(error)") }

        let endpoint = try HostPort(
            parsing: apnsAddress ?? (tls ? "127.0.0.1:7443" : "127.0.0.1:7444"), what: "--apns-address")
        var request = H2Request(path: "", authority: endpoint.description, body: body)
        request.scheme = tls ? "https" : "http"
        var headers: [H2Request.Header] = [.init(name: "apns-push-type", value: pushType.rawValue)]

        if broadcast {
            request.path = "/4/broadcasts/apps/\(target)"
            headers.append(.init(name: "apns-channel-id", value: channel ?? ""))
            if let topic { headers.append(.init(name: "apns-topic", value: topic)) }
        } else {
            let (token, bundle) = try await resolveTarget()
            request.path = "/3/device/\(token)"
            guard let topic = topic ?? bundle.map({ $0 + pushType.topicSuffix }) else {
                throw CLIFailure.usage("no app at the gateway has the token \(token); give --topic")
            }
            headers.append(.init(name: "apns-topic", value: topic))
        }
        headers.append(.init(name: "apns-priority", value: String(priority ?? (pushType == .background ? 5 : 10))))
        if let expiration { headers.append(.init(name: "apns-expiration", value: expiration)) }
        if let collapseID { headers.append(.init(name: "apns-collapse-id", value: collapseID)) }
        if let key {
            let spec = try ProviderToken.KeySpec(parsing: key)
            let pem: [UInt8]
            do { pem = try Files.read(spec.path) } catch { throw CLIFailure.usage("--key: cannot read \(error)") }
            let issuedAt = issuedAtSeconds()
            do {
                let jwt = try ProviderToken.make(
                    teamID: spec.teamID, keyID: spec.keyID, privateKeyPEM: String(decoding: pem, as: UTF8.self),
                    issuedAt: issuedAt)
                headers.append(.init(name: "authorization", value: "bearer \(jwt)"))
            } catch {
                throw CLIFailure.usage("--key \(spec.path): \(error)")
            }
        }
        headers.append(.init(name: "content-type", value: "application/json"))
        request.headers = headers

        let response: H2Response
        do {
            response = try await H2Client.send(
                request, host: endpoint.host, port: endpoint.port, tls: tls ? H2Client.TLS(caFile: ca) : nil)
        } catch let failure as CLIFailure {
            throw failure
        } catch let failure as H2Client.Failure {
            switch failure {
            case .unreadableCA(let reason): throw CLIFailure.usage("--ca \(reason)")
            case .connect(let reason):
                throw CLIFailure.unreachable(
                    what: "the APNs endpoint", address: endpoint.description, detail: CLIFailure.plainReason(reason))
            default:
                throw CLIFailure.unreachable(
                    what: "the APNs endpoint", address: endpoint.description, detail: failure.description)
            }
        } catch {
            let text = "\(error)"
            let detail =
                text.contains("CERTIFICATE_VERIFY_FAILED")
                ? "TLS: its certificate is not trusted; give its CA with --ca (glimpse-activity prints the path at start)"
                : text
            throw CLIFailure.unreachable(what: "the APNs endpoint", address: endpoint.description, detail: detail)
        }
        let answer = PushAnswer(response)
        if global.json {
            global.emitJSON(answer.json(path: request.path))
        } else {
            context.say(answer.text)
        }
        if !(200..<300).contains(answer.status) {
            throw CLIFailure.pushRefused(status: answer.status, reason: answer.reason)
        }
    }

    /// The device token to push to, and the bundle it belongs to when known.
    func resolveTarget() async throws -> (token: String, bundle: String?) {
        if PushTarget.isDeviceToken(target) {
            let token = target.lowercased()
            if topic != nil { return (token, nil) }
            guard pushType == .liveactivity else {
                throw CLIFailure.usage("give --topic for a \(pushType.rawValue) push to a token")
            }
            let views = try await global.withGateway { gateway in
                try await gateway.activities.list(
                    .init(message: GlimpseGatewayV1.ListActivitiesRequest(bundleId: "", includeDismissed: true))
                ).message
            }
            let owner = views.activities.compactMap(\.activity).first { $0.pushToken.lowercased() == token }
            return (token, owner?.bundleId)
        }
        if UUID(uuidString: target) != nil {
            guard pushType == .liveactivity else {
                throw CLIFailure.usage("a \(pushType.rawValue) push goes to a token or a bundle, not an activity")
            }
            let views = try await global.withGateway { gateway in
                try await gateway.activities.list(
                    .init(message: GlimpseGatewayV1.ListActivitiesRequest(bundleId: "", includeDismissed: true))
                ).message
            }
            guard
                let activity = views.activities.compactMap(\.activity).first(where: {
                    $0.activityId.lowercased() == target.lowercased()
                })
            else { throw CLIFailure.usage("no activity \(target) at the gateway (nor dismissed within the hour)") }
            guard !activity.pushToken.isEmpty else {
                throw CLIFailure.usage("activity \(target) has no push token (requested without pushType: .token)")
            }
            return (activity.pushToken, activity.bundleId)
        }
        let bundle = target
        switch pushType {
        case .liveactivity:
            let views = try await global.withGateway { gateway in
                try await gateway.activities.list(
                    .init(message: GlimpseGatewayV1.ListActivitiesRequest(bundleId: bundle, includeDismissed: false))
                ).message
            }
            let token = try PushTarget.pickToken(bundle: bundle, views.activities.compactMap(\.activity))
            return (token, bundle)
        case .widgets:
            let appToken = appToken ?? global.context.environment["GLIMPSE_APP_TOKEN"]
            guard let appToken, !appToken.isEmpty else {
                throw CLIFailure.usage(
                    "the widget push token is the app's to ask for: give --app-token, or the token itself")
            }
            let response = try await global.withGateway(appToken: appToken) { gateway in
                try await gateway.activityKit.getWidgetPushToken(
                    gateway.request(GlimpseActivityV1.WidgetPushTokenRequest(bundleId: bundle))
                ).message
            }
            return (response.pushToken, bundle)
        case .alert, .background:
            throw CLIFailure.usage("a \(pushType.rawValue) push needs a device token")
        }
    }

    /// The token's iat: `--iat`, else the time of day. A push server signs with its own
    /// clock, and glimpse-activity checks tokens against the time of day (Apple's one hour),
    /// not against the device's clock, which a manual stack may hold months away.
    func issuedAtSeconds() -> Int64 {
        if let iat, let seconds = PushTarget.parseTime(iat) { return seconds }
        return Int64(Date().timeIntervalSince1970)
    }
}

/// How `glimpse push` reads its target.
package enum PushTarget {
    /// A device token as APNs takes it: hex, at least 16 digits, whole bytes.
    package static func isDeviceToken(_ text: String) -> Bool {
        text.count >= 16 && text.count % 2 == 0 && text.allSatisfy { $0.isHexDigit }
    }

    /// The push token of the app's only Live Activity that has one.
    package static func pickToken(
        bundle: String, _ activities: [GlimpseActivityV1.Activity]
    ) throws(CLIFailure) -> String {
        let withTokens = activities.filter { !$0.pushToken.isEmpty && $0.state != .ended && $0.state != .dismissed }
        guard let first = withTokens.first else {
            throw .usage(
                "\(bundle) has no Live Activity with a push token (requested with pushType: .token); give the token")
        }
        guard withTokens.count == 1 else {
            let list = withTokens.map { "\($0.activityId) (\($0.pushToken))" }.joined(separator: ", ")
            throw .usage("\(bundle) has \(withTokens.count) Live Activities with push tokens: \(list); give the token")
        }
        return first.pushToken
    }

    /// Seconds since 1970 from `1767258000` or an ISO 8601 date.
    package static func parseTime(_ text: String) -> Int64? {
        if let seconds = Int64(text) { return seconds }
        return (try? ISO8601Text.parse(text))?.seconds
    }
}

/// The endpoint's answer as `glimpse push` prints it.
struct PushAnswer {
    var status: Int
    var reason: String
    var apnsID: String
    var timestamp: String?

    init(_ response: H2Response) {
        status = response.status
        apnsID = response.header("apns-id") ?? ""
        let body = try? JSONParser.parse(response.body)
        reason = body?["reason"]?.stringValue ?? ""
        if case .number(let literal)? = body?["timestamp"] { timestamp = literal }
    }

    var text: String {
        var text = "\(status)"
        if !reason.isEmpty { text += " \(reason)" }
        if let timestamp { text += " (token invalid since \(timestamp) ms)" }
        if !apnsID.isEmpty { text += "  apns-id \(apnsID)" }
        return text
    }

    func json(path: String) -> JSONValue {
        var members = [JSONMember("status", .number(status)), JSONMember("path", .string(path))]
        if !reason.isEmpty { members.append(JSONMember("reason", .string(reason))) }
        if let timestamp { members.append(JSONMember("timestamp", .number(timestamp))) }
        if !apnsID.isEmpty { members.append(JSONMember("apnsId", .string(apnsID))) }
        return .object(members)
    }
}
