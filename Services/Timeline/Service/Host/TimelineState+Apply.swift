import ServiceKit
package import GlimpseVocabulary
import GlimpseMessages
import ProtoMapping
import RPCCore
package import TimelineEngine
import TimelineMapping

extension TimelineState {
    /// Applies one journaled input. Deterministic given the state, the input and the
    /// clock (replay depends on it), and leaves the state unchanged when it throws: every
    /// check comes before the first change. Refusals are gRPC errors with the spec's words.
    package static func apply(
        _ state: inout TimelineState, _ command: TimelineCommand
    ) throws -> Step<TimelineAnswer, TimelineEffect> {
        var step = try applyChecked(&state, command)
        step.effects = state.noted(step.effects)
        return step
    }

    static func applyChecked(
        _ state: inout TimelineState, _ command: TimelineCommand
    ) throws -> Step<TimelineAnswer, TimelineEffect> {
        do {
            switch command.record.input {
            case .install(let request)?: return try state.install(request, token: command.record.appToken)
            case .uninstall(let request)?:
                let app = AppID(request.bundleId)
                guard let installed = state.apps[app] else {
                    throw RPCError(code: .notFound, message: "app \(app) is not installed")
                }
                let removed = state.scheduler.placements(of: app).map(\.rawValue)
                let effects = state.scheduler.uninstall(app: app)
                state.apps[app] = nil
                state.tokens[installed.token] = nil
                for id in removed { state.lastErrors[PlacementID(id)] = nil }
                return Step(.removed(removed), effects: effects)
            case .place(let request)?: return try state.place(request)
            case .reconfigure(let request)?:
                let configuration = try TypedValue.map(request.configuration, field: "configuration")
                return Step(
                    .none,
                    effects: try state.scheduler.reconfigure(
                        PlacementID(request.placementId), configuration: configuration))
            case .remove(let request)?:
                let effects = try state.scheduler.remove(PlacementID(request.placementId))
                state.lastErrors[PlacementID(request.placementId)] = nil
                return Step(.none, effects: effects)
            case .reloadTimelines(let request)?:
                let reason = try ReloadReason(request.reason, field: "reason")
                return state.once(request.requestId) {
                    $0.scheduler.reloadTimelines(ofKind: request.kind, app: AppID(request.bundleId), reason: reason)
                }
            case .reloadAllTimelines(let request)?:
                let reason = try ReloadReason(request.reason, field: "reason")
                return state.once(request.requestId) {
                    $0.scheduler.reloadAllTimelines(app: AppID(request.bundleId), reason: reason)
                }
            case .reloadPlacement(let request)?:
                let reason = try ReloadReason(
                    request.reason == .unspecified ? .intentPerformed : request.reason, field: "reason")
                return try state.once(request.requestId) {
                    try $0.scheduler.reload(PlacementID(request.placementId), reason: reason)
                }
            case .appState(let request)?:
                return Step(.none, effects: state.scheduler.setAppActive(AppID(request.bundleId), request.active))
            case .deviceSettings(let request)?:
                var effects: [TimelineEffect] = []
                if let low = request.lowPowerMode { effects += state.scheduler.setLowPowerMode(low) }
                if request.locale != nil { effects += state.scheduler.systemChanged(.locale) }
                if request.dynamicTypeSize != nil { effects += state.scheduler.systemChanged(.accessibility) }
                return Step(.none, effects: effects)
            case .providerAnswer(let answer)?: return try state.providerAnswered(answer)
            case .placeholderAnswer(let answer)?:
                let entry = try TimelineEngine.TimelineEntry(answer.entry ?? .init(), field: "entry")
                return Step(
                    .none, effects: state.scheduler.placeholderReceived(entry, for: PlacementID(answer.placementId)))
            case nil: throw RPCError(code: .invalidArgument, message: "an empty journal record")
            }
        } catch let error as InvalidField {
            throw error.rpcError
        } catch let error as PlacementError {
            throw error.rpcError
        }
    }

    mutating func install(
        _ request: GlimpseTimelineV1.InstallAppRequest, token: String
    ) throws -> Step<TimelineAnswer, TimelineEffect> {
        guard let manifest = request.manifest else { throw InvalidField("manifest", "a manifest is required") }
        guard !manifest.bundleId.isEmpty else { throw InvalidField("manifest.bundle_id", "a bundle id is required") }
        guard !token.isEmpty, tokens[token] == nil else {
            throw RPCError(code: .internal, message: "no fresh app token")
        }
        let app = AppID(manifest.bundleId)
        let kinds = try manifest.widgetKinds()
        try scheduler.install(app: app, kinds: kinds)
        apps[app] = InstalledApp(manifest: manifest, token: token)
        tokens[token] = app
        return Step(.installed(token: token))
    }

    mutating func place(_ request: GlimpseTimelineV1.PlaceRequest) throws -> Step<TimelineAnswer, TimelineEffect> {
        // 0 asks for the next free id: deterministic, so replay assigns the same one.
        let placementID = request.placementId != 0 ? request.placementId : nextPlacementID
        let family = try WidgetFamily(request.family, field: "family")
        let screen: WidgetScreen? =
            switch request.screen {
            case .home: .homeScreen
            case .lock: .lockScreen
            case .unspecified, .unrecognized: nil
            }
        let configuration = try TypedValue.map(request.configuration, field: "configuration")
        let id = PlacementID(placementID)
        let effects = try scheduler.place(
            Placement(
                id: id, app: AppID(request.bundleId), kind: request.kind, family: family,
                configuration: configuration, screen: screen))
        nextPlacementID = max(nextPlacementID, placementID + 1)
        return Step(.placed(placementID), effects: effects)
    }

    /// Applies a reload unless a request with `id` was applied before (a retry): then nothing.
    mutating func once(
        _ id: String, _ reload: (inout TimelineState) throws -> [TimelineEffect]
    ) rethrows -> Step<TimelineAnswer, TimelineEffect> {
        guard !appliedReloads.contains(id) else { return Step(.none) }
        let effects = try reload(&self)
        appliedReloads.insert(id)
        return Step(.none, effects: effects)
    }

    mutating func providerAnswered(
        _ answer: GlimpseTimelineV1.ProviderAnswer
    ) throws -> Step<TimelineAnswer, TimelineEffect> {
        let fetch = FetchID(rawValue: answer.fetchId)
        guard let placement = inFlight.removeValue(forKey: answer.fetchId) else {
            return Step(.none)  // an answer to a call abandoned (timed out, or its placement removed)
        }
        var error: GlimpseTimelineV1.ProviderError
        switch answer.outcome {
        case .timeline(let wire)?:
            do {
                let effects = scheduler.timelineReceived(try Timeline(wire), for: fetch)
                if let rejected = effects.lazy.compactMap({ e -> TimelineRejection? in
                    if case .timelineRejected(_, let r) = e { r } else { nil }
                }).first {
                    error = GlimpseTimelineV1.ProviderError(.invalidTimeline, "\(rejected)")
                    return Step(.none, effects: recordFailure(error, of: placement, effects))
                }
                lastErrors[placement] = nil
                return Step(.none, effects: effects)
            } catch let invalid {
                // A malformed timeline is the provider's failure: the last timeline stays.
                error = GlimpseTimelineV1.ProviderError(.invalidTimeline, invalid.description)
            }
        case .error(let failure)?: error = failure
        case nil:
            error = GlimpseTimelineV1.ProviderError(
                .callFailed(.unknown), "the answer carried neither a timeline nor an error")
        }
        return Step(.none, effects: recordFailure(error, of: placement, scheduler.timelineFailed(fetch)))
    }

    /// Keeps a provider failure where `GetPlacement` shows it, with the retry the engine set.
    mutating func recordFailure(
        _ error: GlimpseTimelineV1.ProviderError, of placement: PlacementID, _ effects: [TimelineEffect]
    ) -> [TimelineEffect] {
        var error = error
        error.at = GoogleProtobuf.Timestamp(scheduler.clock.now)
        for case .retryScheduled(placement, let at, let failures) in effects {
            error.retryAt = GoogleProtobuf.Timestamp(at)
            error.failures = UInt32(failures)
        }
        lastErrors[placement] = error
        return effects
    }
}

extension ReloadReason {
    init(_ wire: GlimpseTimelineV1.ReloadReason, field: String) throws(InvalidField) {
        switch wire {
        case .unspecified, .appRequest: self = .appRequest
        case .intentPerformed: self = .intentPerformed
        case .policy, .placed, .localeChanged, .accessibilityChanged, .unrecognized:
            throw InvalidField(field, "only APP_REQUEST or INTENT_PERFORMED can be asked for")
        }
    }

    var wire: GlimpseTimelineV1.ReloadReason {
        switch self {
        case .policy: .policy
        case .appRequest: .appRequest
        case .placed: .placed
        case .intentPerformed: .intentPerformed
        case .localeChanged: .localeChanged
        case .accessibilityChanged: .accessibilityChanged
        }
    }
}

extension PlacementError {
    /// The gRPC status of each refusal.
    var rpcError: RPCError {
        let code: StatusCode =
            switch self {
            case .unknownApp, .unknownKind, .unknownPlacement: .notFound
            case .appAlreadyInstalled, .duplicateKind, .duplicatePlacement: .alreadyExists
            case .unsupportedFamily, .familyNotOnScreen, .familyNotOnDevice, .unknownParameter, .parameterTypeMismatch:
                .invalidArgument
            }
        return RPCError(code: code, message: description)
    }
}
