#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ServiceKit
import ActivityEngine
import GlimpseMessages
package import GlimpseVocabulary
import GlimpseJSON
import ProtoMapping
import RPCCore
import ActivityMapping

extension ActivityServiceState {
    /// Applies one journaled input; throws (leaving the state unchanged) when it is refused.
    @Sendable
    package static func apply(
        _ state: inout ActivityServiceState, _ command: ActivityCommand
    ) throws -> Step<ActivityAnswer, ActivityServiceEffect> {
        do {
            switch command.record.input {
            case .genesisSeed(let seed)?:
                state.identifiers = HashedIdentifiers(seed: seed)
                let m = state.manager
                state.manager = ActivityManager(
                    clock: m.clock, config: m.config, device: m.device, identifiers: state.identifiers)
                return Step(.none)
            case .install(let request)?: return try state.install(request, token: command.record.appToken)
            case .uninstall(let request)?: return try state.uninstall(AppID(request.bundleId))
            case .request(let request)?: return try state.request(request)
            case .update(let request)?:
                let id = try activityID(request.activityId)
                let content = try ActivityContent(request.content, field: "content")
                let step = state.manager.update(
                    id, content: content, alert: AlertConfiguration(request.alert),
                    timestamp: try request.timestamp?.date(field: "timestamp"))
                return state.change(GlimpseActivityV1.Outcome(step.answer, activity: id), id, step.effects)
            case .end(let request)?:
                let id = try activityID(request.activityId)
                let content = try request.content.map { try ActivityContent($0, field: "content") }
                let policy = try DismissalPolicy(request.dismissalPolicy, field: "dismissal_policy")
                let step = state.manager.end(
                    id, content: content, dismissalPolicy: policy,
                    timestamp: try request.timestamp?.date(field: "timestamp"))
                return state.change(GlimpseActivityV1.Outcome(step.answer, activity: id), id, step.effects)
            case .dismiss(let request)?:
                let id = try activityID(request.activityId)
                // A dismissed activity is removed: the answer carries it as it was last,
                // in the dismissed state.
                var last = state.manager.activity(id)?.wire
                last?.state = .dismissed
                let step = state.manager.dismissByUser(id)
                let outcome =
                    step.answer
                    ? GlimpseActivityV1.Outcome(.applied, "dismissed by the user", activity: id, state: .dismissed)
                    : GlimpseActivityV1.Outcome(.unknownActivity, "no such activity", activity: id)
                return state.change(outcome, id, step.effects, removed: step.answer ? last : nil)
            case .rotatePushToken(let request)?:
                let step = state.manager.rotatePushToken(try activityID(request.activityId))
                guard let token = step.answer else {
                    throw RPCError(
                        code: .failedPrecondition,
                        message: "activity \(request.activityId) has no update token to rotate (not .token, or ended)")
                }
                return Step(.token(token.hex), effects: state.noted(step.effects))
            case .pushToStartToken(let request)?:
                let step = state.manager.pushToStartToken(
                    app: AppID(request.bundleId), attributesType: request.attributesType)
                return try state.tokenStep(step)
            case .rotatePushToStartToken(let request)?:
                let step = state.manager.rotatePushToStartToken(
                    app: AppID(request.bundleId), attributesType: request.attributesType)
                return try state.tokenStep(step)
            case .widgetPushToken(let request)?:
                let app = AppID(request.bundleId)
                guard state.apps[app] != nil else {
                    throw RPCError(code: .notFound, message: "app \(app) is not installed")
                }
                if let token = state.widgetTokenOfApp[app] { return Step(.token(token.hex)) }
                let token = state.identifiers.nextPushToken()
                state.widgetTokenOfApp[app] = token
                state.widgetTokens[token] = app
                return Step(.token(token.hex), effects: [.widgetTokenIssued(token)])
            case .appSwitches(let request)?:
                let app = AppID(request.bundleId)
                guard state.apps[app] != nil else {
                    throw RPCError(code: .notFound, message: "app \(app) is not installed")
                }
                if let on = request.activitiesEnabled { state.manager.setActivitiesEnabled(on, for: app) }
                if let on = request.frequentUpdatesEnabled { state.manager.setFrequentUpdatesEnabled(on, for: app) }
                return Step(.authorization(state.authorization(app)))
            case .push(let push)?: return state.receive(push)
            case .channel(let request)?: return try state.channel(request)
            case .injectFault(let request)?: return try state.inject(request)
            case .clearFaults?:
                let count = UInt32(state.faults.count)
                state.faults = []
                return Step(.cleared(count))
            case nil: throw RPCError(code: .invalidArgument, message: "an empty journal record")
            }
        } catch let error as InvalidField {
            throw error.rpcError
        }
    }

    static func activityID(_ text: String) throws(InvalidField) -> ActivityID {
        guard let id = ActivityID(text) else {
            throw InvalidField("activity_id", "\"\(text)\" is not an activity id (a UUID)")
        }
        return id
    }

    func authorization(_ app: AppID) -> GlimpseActivityV1.AuthorizationInfo {
        let info = manager.authorizationInfo(for: app)
        return GlimpseActivityV1.AuthorizationInfo(
            areActivitiesEnabled: info.areActivitiesEnabled, frequentPushesEnabled: info.frequentPushesEnabled)
    }

    /// The answer to a change: its outcome and the activity after it (`removed`: what to
    /// answer when the change removed it).
    mutating func change(
        _ outcome: GlimpseActivityV1.Outcome, _ id: ActivityID, _ events: [ActivityEvent],
        removed: GlimpseActivityV1.Activity? = nil
    ) -> Step<ActivityAnswer, ActivityServiceEffect> {
        var response = GlimpseActivityV1.ChangeResponse()
        response.outcome = outcome
        response.activity = manager.activity(id)?.wire ?? removed
        return Step(.change(response), effects: noted(events))
    }

    mutating func tokenStep(
        _ step: Step<Result<PushToken, ActivityAuthorizationError>, ActivityEvent>
    ) throws -> Step<ActivityAnswer, ActivityServiceEffect> {
        switch step.answer {
        case .success(let token): return Step(.token(token.hex), effects: noted(step.effects))
        case .failure(let error):
            throw RPCError(code: .failedPrecondition, message: "ActivityAuthorizationError.\(error.rawValue)")
        }
    }

    mutating func install(
        _ request: GlimpseActivityV1.InstallAppRequest, token: String
    ) throws -> Step<ActivityAnswer, ActivityServiceEffect> {
        guard let manifest = request.manifest else { throw InvalidField("manifest", "a manifest is required") }
        guard !manifest.bundleId.isEmpty else { throw InvalidField("manifest.bundle_id", "a bundle id is required") }
        let app = AppID(manifest.bundleId)
        guard apps[app] == nil else { throw RPCError(code: .alreadyExists, message: "app \(app) is already installed") }
        guard !token.isEmpty, tokens[token] == nil else {
            throw RPCError(code: .internal, message: "no fresh app token")
        }
        var types = Set<String>()
        for (index, declaration) in manifest.activityAttributes.enumerated() {
            guard !declaration.typeName.isEmpty else {
                throw InvalidField("manifest.activity_attributes[\(index)].type_name", "a type name is required")
            }
            types.insert(declaration.typeName)
        }
        manager.install(
            app, InstalledApp(attributeTypes: types, supportsFrequentUpdates: manifest.supportsFrequentUpdates))
        apps[app] = InstalledRecord(manifest: manifest, token: token)
        tokens[token] = app
        return Step(.installed(token: token))
    }

    mutating func uninstall(_ app: AppID) throws -> Step<ActivityAnswer, ActivityServiceEffect> {
        guard let installed = apps[app] else { throw RPCError(code: .notFound, message: "app \(app) is not installed") }
        var events: [ActivityEvent] = []
        var ended: [String] = []
        for activity in manager.activities(of: app) {
            events += manager.dismissByUser(activity.id).effects
            ended.append(activity.id.description)
        }
        let effects = noted(events)
        let now = manager.clock.now
        for (token, owner) in widgetTokens where owner == app {
            retired[token] = RetiredToken(reason: .unregistered, since: now)
            widgetTokens[token] = nil
        }
        widgetTokenOfApp[app] = nil
        for (key, token) in pushToStartTokens where key.hasPrefix(app.rawValue + "\u{0}") {
            retired[token] = RetiredToken(reason: .unregistered, since: now)
            pushToStartTokens[key] = nil
            pushToStartOwners[token] = nil
        }
        for (channel, known) in channels where known.app == app { manager.forgetChannel(channel) }
        channels = channels.filter { $0.value.app != app }
        manager.setActivitiesEnabled(false, for: app)
        apps[app] = nil
        tokens[installed.token] = nil
        return Step(.removed(ended), effects: effects)
    }

    mutating func request(
        _ request: GlimpseActivityV1.RequestActivityRequest
    ) throws -> Step<ActivityAnswer, ActivityServiceEffect> {
        let app = AppID(request.bundleId)
        guard apps[app] != nil else { throw RPCError(code: .notFound, message: "app \(app) is not installed") }
        guard !request.attributesType.isEmpty else {
            throw InvalidField("attributes_type", "an ActivityAttributes type name is required")
        }
        let attributes: JSONObjectBytes
        do {
            attributes = try JSONObjectBytes(
                validating: Array((request.attributesJson.isEmpty ? "{}" : request.attributesJson).utf8))
        } catch {
            throw InvalidField("attributes_json", "must be a JSON object: \(error)")
        }
        let content = try ActivityContent(request.content, field: "content")
        var pushType: PushType?
        switch request.pushType {
        case .token(true)?: pushType = .token
        case .token(false)?, nil: pushType = nil
        case .channelId(let id)?:
            let channel = ChannelID(id)
            guard let known = channels[channel], known.app == app else {
                throw RPCError(
                    code: .failedPrecondition,
                    message: "channel_id \(id) is not a channel of \(app) (create it through channel management first)")
            }
            pushType = .channel(channel)
        }
        let origin: RequestOrigin =
            request.fromLiveActivityIntent ? .liveActivityIntent : .app(isForeground: !request.inBackground)
        let step = manager.request(
            app: app, attributes: ActivityAttributesPayload(typeName: request.attributesType, value: attributes),
            content: content, pushType: pushType, origin: origin,
            startDate: try request.startDate?.date(field: "start_date"))
        switch step.answer {
        case .success(let id):
            let effects = noted(step.effects)
            guard let snapshot = manager.activity(id) else {
                throw RPCError(code: .internal, message: "requested activity \(id) is missing")
            }
            return Step(.activity(snapshot.wire), effects: effects)
        case .failure(let error):
            throw RPCError(code: .failedPrecondition, message: "ActivityAuthorizationError.\(error.rawValue)")
        }
    }

    mutating func inject(
        _ request: GlimpseActivityV1.InjectFaultRequest
    ) throws -> Step<ActivityAnswer, ActivityServiceEffect> {
        let target: Fault.Target
        switch request.target {
        case .deviceToken(let token)?:
            guard let parsed = PushToken(hex: token) else { throw InvalidField("device_token", "must be hex") }
            target = .deviceToken(parsed.hex)
        case .topic(let topic)? where !topic.isEmpty: target = .topic(topic)
        default: throw InvalidField("target", "a device_token or a topic is required")
        }
        guard request.count >= 1 else { throw InvalidField("count", "at least 1") }
        guard (400...599).contains(request.status) else {
            throw InvalidField("status", "an HTTP error status (400–599)")
        }
        guard !request.reason.isEmpty else {
            throw InvalidField("reason", "Apple's reason, e.g. Unregistered or ServiceUnavailable")
        }
        let id = nextFaultID
        nextFaultID += 1
        faults.append(
            Fault(
                id: id, target: target, remaining: Int(request.count), status: request.status, reason: request.reason,
                goaway: request.goaway))
        return Step(.fault(id))
    }
}
