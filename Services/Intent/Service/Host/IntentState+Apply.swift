import ServiceKit
package import GlimpseVocabulary
import EngineHosting
import GlimpseMessages
package import IntentEngine
import IntentMapping
import ProtoMapping
import RPCCore

extension IntentState {
    /// Applies one journaled input. Deterministic given the state, the input and the
    /// clock (replay depends on it), and leaves the state unchanged when it throws: every
    /// check comes before the first change. A tap the executor refuses is not an error
    /// here: it is journaled (its key is then answered from the idempotency record), and
    /// the handler turns the refusal into its answer.
    package static func apply(
        _ state: inout IntentState, _ command: IntentCommand
    ) throws -> Step<IntentAnswer, IntentEffect> {
        do {
            switch command.record.input {
            case .registerApp(let request)?: return try state.register(request, token: command.record.appToken)
            case .unregister(let request)?:
                let app = AppID(request.bundleId)
                guard let registered = state.apps[app] else {
                    throw RPCError(code: .notFound, message: "app \(app) is not registered")
                }
                state.executor.uninstall(app: app)
                state.apps[app] = nil
                state.tokens[registered.token] = nil
                return Step(.none)
            case .reloadsDelivered(let delivered)?:
                let ids = Set(delivered.ids)
                state.outbox.removeAll { ids.contains($0.id) }
                return Step(.none)
            case .placementAdded(let request)?:
                guard !request.bundleId.isEmpty else { throw InvalidField("bundle_id", "a bundle id is required") }
                guard !request.kind.isEmpty else { throw InvalidField("kind", "a widget kind is required") }
                let family = try WidgetFamily(request.family, field: "family")
                guard let registered = state.apps[AppID(request.bundleId)] else {
                    throw RPCError(code: .notFound, message: "app \(request.bundleId) is not registered")
                }
                let kinds = registered.manifest.widgets.map(\.kind)
                guard kinds.isEmpty || kinds.contains(request.kind) else {
                    throw RPCError(
                        code: .notFound, message: "app \(request.bundleId) has no widget kind \(request.kind)")
                }
                state.executor.placementAdded(
                    PlacementID(request.placementId),
                    PlacedWidget(app: AppID(request.bundleId), kind: request.kind, family: family))
                return Step(.none)
            case .placementRemoved(let request)?:
                state.executor.placementRemoved(PlacementID(request.placementId))
                return Step(.none)
            case .deviceLocked(let request)?:
                state.executor.setDeviceLocked(request.locked)
                return Step(.none)
            case .perform(let request)?: return try state.perform(request)
            case .set(let request)?:
                let group = try Self.group(request.appGroup, key: request.key)
                guard let wire = request.value else { throw InvalidField("value", "a value is required") }
                let value = try TypedValue(wire, field: "value")
                let sequence = state.executor.store.set(request.key, to: value, in: group)
                return Step(.written(sequence: sequence), effects: [.storeChanged(group, sequence: sequence)])
            case .remove(let request)?:
                let group = try Self.group(request.appGroup, key: request.key)
                guard let sequence = state.executor.store.remove(request.key, in: group) else {
                    return Step(.written(sequence: state.executor.store.sequence(of: group)))
                }
                return Step(.written(sequence: sequence), effects: [.storeChanged(group, sequence: sequence)])
            case .compareAndSet(let request)?:
                let group = try Self.group(request.appGroup, key: request.key)
                let value = try request.value.map { v throws(InvalidField) in try TypedValue(v, field: "value") }
                let expected = request.expectedVersion == 0 ? nil : request.expectedVersion
                do {
                    let sequence = try state.executor.store.compareAndSet(
                        request.key, in: group, expected: expected, to: value)
                    return Step(.written(sequence: sequence), effects: [.storeChanged(group, sequence: sequence)])
                } catch {
                    throw RPCError(code: .aborted, message: "\(error)")
                }
            case .handlerAnswer(let answer)?:
                let outcome: IntentExecutor.HandlerOutcome
                switch answer.outcome?.outcome {
                case .succeeded(let succeeded)?:
                    outcome = .succeeded(
                        try succeeded.value.map { v throws(InvalidField) in
                            try TypedValue(v, field: "outcome.succeeded.value")
                        })
                case .failed(let failed)?: outcome = .failed(message: failed.message)
                case nil: outcome = .failed(message: "the handler answered no outcome")
                }
                let asked = IntentReloads(answer.outcome?.reloads)
                return Step(
                    .none,
                    effects: state.noted(
                        state.executor.handlerFinished(CallID(rawValue: answer.callId), outcome, asked: asked)))
            case nil: throw RPCError(code: .invalidArgument, message: "an empty journal record")
            }
        } catch let error as InvalidField {
            throw error.rpcError
        }
    }

    static func group(_ name: String, key: String) throws(InvalidField) -> GroupID {
        guard !name.isEmpty else { throw InvalidField("app_group", "an App Group is required") }
        guard !key.isEmpty else { throw InvalidField("key", "a key is required") }
        return GroupID(name)
    }

    mutating func register(
        _ request: GlimpseIntentV1.RegisterAppRequest, token: String
    ) throws -> Step<IntentAnswer, IntentEffect> {
        guard let manifest = request.manifest else { throw InvalidField("manifest", "a manifest is required") }
        guard !manifest.bundleId.isEmpty else { throw InvalidField("manifest.bundle_id", "a bundle id is required") }
        guard !token.isEmpty, tokens[token] == nil else {
            throw RPCError(code: .internal, message: "no fresh app token")
        }
        let app = AppID(manifest.bundleId)
        let definitions = try manifest.intentDefinitions()
        do {
            try executor.install(
                app: app, groups: Set(manifest.appGroups.map(GroupID.init(rawValue:))), intents: definitions)
        } catch {
            let code: StatusCode = if case .appAlreadyInstalled = error { .alreadyExists } else { .invalidArgument }
            throw RPCError(code: code, message: "\(error)")
        }
        apps[app] = RegisteredApp(manifest: manifest, token: token)
        tokens[token] = app
        return Step(.registered(token: token))
    }

    mutating func perform(_ request: GlimpseIntentV1.PerformRequest) throws -> Step<IntentAnswer, IntentEffect> {
        guard !request.idempotencyKey.isEmpty else {
            throw InvalidField("idempotency_key", "an idempotency key is required")
        }
        guard !request.bundleId.isEmpty else { throw InvalidField("bundle_id", "a bundle id is required") }
        guard !request.intentType.isEmpty else { throw InvalidField("intent_type", "an intent type is required") }
        let parameters = try TypedValue.map(request.parameters, field: "parameters")
        let app = AppID(request.bundleId)
        let target: TapTarget
        if request.activityId.isEmpty {
            target = .placement(PlacementID(request.placementId))
        } else {
            guard request.placementId == 0 else {
                throw InvalidField(
                    "placement_id", "a tap is on a placement or on a Live Activity (activity_id), not both")
            }
            guard !request.attributesType.isEmpty else {
                throw InvalidField(
                    "attributes_type", "a Live Activity's ActivityAttributes type is required with activity_id")
            }
            target = .activity(id: request.activityId, attributesType: request.attributesType)
        }
        let tap = WidgetTap(
            idempotencyKey: request.idempotencyKey, app: app, target: target,
            intent: request.intentType, parameters: parameters)
        // A tap on a handler intent that is neither answered at once nor a replay waits
        // for its call: its key goes with the next call on the target.
        let isHandler = handlerIntent(app: app, intent: request.intentType)
        var effects = executor.tap(tap)
        let completion = effects.lazy.compactMap { effect -> TapCompletion? in
            if case .completed(let c) = effect, c.app == app, c.idempotencyKey == request.idempotencyKey {
                c
            } else {
                nil
            }
        }.first
        let running = effects.contains { if case .alreadyRunning = $0 { true } else { false } }
        if isHandler, completion == nil, !running {
            pendingHandlerKeys[tap.target, default: []].append(request.idempotencyKey)
        }
        effects = noted(effects)
        return Step(.tap(completion), effects: effects)
    }

    func handlerIntent(app: AppID, intent: String) -> Bool {
        guard let declaration = apps[app]?.manifest.intents.first(where: { $0.type == intent }),
            case .handlerEndpoint? = declaration.action
        else { return false }
        return true
    }
}
