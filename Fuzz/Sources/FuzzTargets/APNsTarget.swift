#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityEngine
import ActivityService
import Crypto
import GlimpseVocabulary
import GlimpseMessages
import ServiceKit
import ActivityMapping

extension FuzzTarget {
    /// glimpse-activity's APNs endpoint, one request: the header rules and provider-token
    /// check `APNsEndpoint` applies first, then the push as the service applies it
    /// (`ActivityServiceState.apply`: Apple's transport checks, the path, the token, the
    /// `apns-*` headers, the payload JSON and ActivityKit's rules for the content) on a
    /// device with the pizza app, an activity with an update token, one on a broadcast
    /// channel, and a push-to-start token.
    ///
    /// Input, as text: `POST /3/device/UPDATE` (the method and path), header lines
    /// `name: value`, an empty line, then the body. `UPDATE`, `START` and `CHANNEL` stand for
    /// the device's update token, push-to-start token and channel id. Whatever is refused is
    /// refused with Apple's status and reason; what is kept is journaled and answered, so it
    /// must encode: the journal record, the push log entry and every activity.
    static let apns = FuzzTarget(name: "apns") { bytes in
        guard let request = APNsInput(bytes, device: APNsDevice.shared) else { return }
        var state = APNsDevice.shared.state
        var push = GlimpseActivityV1.ReceivedPush()
        push.method = request.method
        push.path = request.path
        push.headers = request.headers.filter { $0.name != "authorization" }
            .map { GlimpseActivityV1.ReceivedPush.Header(name: $0.name, value: $0.value) }
        push.body = request.body
        push.bodySize = UInt32(clamping: request.body.count)
        if APNsHeaders.duplicated(in: request.headers) != nil {
            push.refusedStatus = 400
            push.refusedReason = "DuplicateHeaders"
        } else if let authorization = request.headers.last(where: { $0.name == "authorization" })?.value,
            let refused = APNsDevice.shared.tokens.check(
                authorization: authorization, connection: "fuzz", now: APNsDevice.shared.clock.now)
        {
            push.refusedStatus = refused.status
            push.refusedReason = refused.reason
        }
        let command = ActivityCommand(.push(push))
        do { _ = try command.record.serializedBytes() } catch {
            finding("the journal cannot hold the push: \(error)")
        }
        let answer: ActivityAnswer
        do { answer = try ActivityServiceState.apply(&state, command).answer } catch {
            return  // refused as a whole, typed (RPCError)
        }
        if case .push = answer, let record = state.pushes(after: state.pushSequence - 1, limit: 1, app: nil).first {
            do { _ = try record.serializedBytes() } catch { finding("the push log entry does not encode: \(error)") }
        } else {
            finding("a push was answered without its push log entry")
        }
        _ = state.fireDue()
        for activity in state.manager.allActivities {
            do { _ = try activity.wire.serializedBytes() } catch {
                finding("activity \(activity.id) no longer encodes after the push: \(error)")
            }
        }
    }
}

/// The request a fuzz input stands for.
struct APNsInput {
    var method: String
    var path: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    init?(_ bytes: [UInt8], device: APNsDevice) {
        let blank: [UInt8] = [0x0A, 0x0A]
        let split = bytes.indices.dropLast().first { bytes[$0] == 0x0A && bytes[$0 + 1] == 0x0A }
        let head = split.map { Array(bytes[..<$0]) } ?? bytes
        body = split.map { Array(bytes[($0 + blank.count)...]) } ?? []
        // HTTP/2 (nghttp2) refuses NUL, CR and LF in a field: such requests never reach the endpoint.
        guard !head.contains(0) && !head.contains(0x0D) else { return nil }
        var lines = String(decoding: head, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.replacing("UPDATE", with: device.updateToken)
                .replacing("START", with: device.startToken)
                .replacing("CHANNEL", with: device.channel)
        }
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 1)
        method = requestLine.first.map(String.init) ?? ""
        path = requestLine.count > 1 ? String(requestLine[1]) : ""
        headers = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            return (name: line[..<colon].lowercased(), value: String(value))
        }
    }
}

/// The device every APNs input starts from (a value: each input gets its own copy).
struct APNsDevice: Sendable {
    static let shared = APNsDevice()
    static let app = "com.example.pizza"

    let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_767_258_000))
    let state: ActivityServiceState
    let updateToken: String
    let startToken: String
    let channel: String
    /// A team's key (made here; no input carries a valid signature, the parsing before it is what runs).
    let tokens: ProviderTokens

    private init() {
        var settings = ActivitySettings.defaults
        settings.pushTokenDelay = 0
        let manager = ActivityManager(clock: clock, config: settings, identifiers: SequentialIdentifiers())
        var state = ActivityServiceState(manager: manager, seed: Array("glimpse-fuzz".utf8))
        var manifest = GlimpseAppV1.AppManifest()
        manifest.bundleId = Self.app
        manifest.activityAttributes = [GlimpseAppV1.ActivityAttributesDeclaration(typeName: "PizzaDeliveryAttributes")]
        Self.apply(
            &state, .install(GlimpseActivityV1.InstallAppRequest(manifest: manifest)), appToken: "fuzz-app-token")
        var create = GlimpseActivityV1.ChannelRequest()
        create.bundleId = Self.app
        create.action = .create(GlimpseActivityV1.ChannelRequest.CreateChannel(channelId: "", messageStoragePolicy: 1))
        guard case .token(let channel) = Self.apply(&state, .channel(create)) else { finding("no channel") }
        self.channel = channel
        Self.apply(&state, .request(Self.request(.token(true))))
        Self.apply(&state, .request(Self.request(.channelId(channel))))
        var startRequest = GlimpseActivityV1.PushToStartTokenRequest()
        startRequest.bundleId = Self.app
        startRequest.attributesType = "PizzaDeliveryAttributes"
        guard case .token(let start) = Self.apply(&state, .pushToStartToken(startRequest)) else {
            finding("no push-to-start token")
        }
        startToken = start
        _ = state.fireDue()  // the update token is issued
        guard let update = state.manager.allActivities.compactMap(\.pushToken).first else { finding("no update token") }
        updateToken = update.hex
        self.state = state
        do {
            let key = P256.Signing.PrivateKey().publicKey.pemRepresentation
            tokens = ProviderTokens(keys: [try ProviderTokens.Key(teamID: "TEAM123456", keyID: "KEY1234567", pem: key)])
        } catch {
            finding("the team key does not load: \(error)")
        }
    }

    private static func request(
        _ pushType: GlimpseActivityV1.RequestActivityRequest.PushType
    ) -> GlimpseActivityV1.RequestActivityRequest {
        var request = GlimpseActivityV1.RequestActivityRequest()
        request.bundleId = app
        request.attributesType = "PizzaDeliveryAttributes"
        request.attributesJson = #"{"numberOfPizzas":1}"#
        request.content = GlimpseActivityV1.Content(
            stateJson: #"{"driverName":"Tim"}"#, staleDate: nil, relevanceScore: 0)
        request.pushType = pushType
        return request
    }

    @discardableResult
    private static func apply(
        _ state: inout ActivityServiceState, _ input: GlimpseActivityV1.JournalRecord.Input, appToken: String = ""
    ) -> ActivityAnswer {
        do { return try ActivityServiceState.apply(&state, ActivityCommand(input, appToken: appToken)).answer } catch {
            finding("the fuzz device's setup was refused: \(error)")
        }
    }
}
