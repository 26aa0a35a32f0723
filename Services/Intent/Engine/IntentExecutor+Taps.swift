import GlimpseVocabulary
import DequeModule
/// Taps: replay, validation, per-target order, and running declarative actions.
extension IntentExecutor {
    /// A widget or a Live Activity was tapped. Returns the tap's completion when it is done at once
    /// (replayed, refused, or a declarative action), or a `.callHandler` to make.
    package mutating func tap(_ tap: WidgetTap) -> [IntentEffect] {
        ledger.expire(at: now)
        var effects: [IntentEffect] = []
        let key = IdempotencyLedger.Key(app: tap.app, key: tap.idempotencyKey)
        if var first = ledger.result(for: key) {
            // A replay runs nothing: it reloads nothing either.
            first.replayed = true
            first.reloaded = []
            effects.append(.completed(first))
        } else if ledger.isRunning(key) {
            effects.append(.alreadyRunning(idempotencyKey: tap.idempotencyKey, app: tap.app))
        } else {
            switch validate(tap) {
            case .failure(let refusal):
                ledger.begin(key)
                finish(key: key, tap: tap, result: .refused(refusal), effects: &effects)
            case .success(let job):
                ledger.begin(key)
                if busy[tap.target] != nil {
                    waiting[tap.target, default: []].append(job)
                } else {
                    run(job, effects: &effects)
                }
            }
        }
        finish(&effects)
        return effects
    }

    func validate(_ tap: WidgetTap) -> Result<Job, TapRefusal> {
        guard let app = apps[tap.app] else { return .failure(.unknownApp(tap.app)) }
        switch tap.target {
        case .placement(let id):
            guard let placed = placements[id] else { return .failure(.unknownPlacement(id)) }
            guard placed.app == tap.app else { return .failure(.placementOfAnotherApp(id)) }
            guard let definition = app.intents[tap.intent] else { return .failure(.unknownIntent(tap.intent)) }
            guard definition.widgetKinds.contains(placed.kind) else {
                return .failure(.notOfferedByKind(intent: tap.intent, kind: placed.kind))
            }
            guard placed.family.isInteractive else { return .failure(.notInteractive(placed.family)) }
            return resolve(tap, definition)
        case .activity(_, let attributesType):
            guard let definition = app.intents[tap.intent] else { return .failure(.unknownIntent(tap.intent)) }
            guard definition.activityAttributes.contains(attributesType) else {
                return .failure(.notOfferedByActivity(intent: tap.intent, attributesType: attributesType))
            }
            return resolve(tap, definition)
        }
    }

    private func resolve(_ tap: WidgetTap, _ definition: IntentDefinition) -> Result<Job, TapRefusal> {
        guard !deviceLocked else { return .failure(.deviceLocked) }
        return definition.resolve(tap.parameters).map { Job(tap: tap, definition: definition, parameters: $0) }
    }

    /// Runs a job now: a declarative action completes at once; a handler call goes out
    /// and holds the tapped target until it is answered.
    mutating func run(_ job: Job, effects: inout [IntentEffect]) {
        switch job.definition.action {
        case .store(let group, let operations):
            let result: TapResult
            do {
                let changes = try store.apply(operations, in: group, parameters: job.parameters)
                if let last = changes.last { effects.append(.storeChanged(group, sequence: last.sequence)) }
                result = .performed(nil)
            } catch {
                result = .failed(.store(error))
            }
            let reloaded = appendReloads(of: job, result: result, effects: &effects)
            finish(key: job.key, tap: job.tap, result: result, reloaded: reloaded, effects: &effects)
        case .handler:
            callCounter += 1
            let id = CallID(rawValue: callCounter)
            let deadline = now + settings.handlerTimeout
            calls[id] = Call(job: job)
            busy[job.tap.target] = id
            deadlines.append(Deadline(at: deadline, call: id))
            effects.append(
                .callHandler(
                    HandlerCall(
                        id: id, app: job.tap.app, intent: job.tap.intent, parameters: job.parameters,
                        target: job.tap.target)))
        }
    }

    /// The tapped widget's reload, then the ones the intent asks for: its declared `reloads`
    /// (if `perform()` succeeded) and what the app's `perform()` asked `WidgetCenter` for
    /// (`asked`, whatever the outcome). One reload per placement: when what is asked covers
    /// the tapped widget (every timeline, or its kind), that is its reload. A Live Activity
    /// has no timeline: its intent updates it through ActivityKit; only what the intent asks
    /// `WidgetCenter` for is reloaded.
    func appendReloads(
        of job: Job, result: TapResult, asked: IntentReloads = .tappedWidget, effects: inout [IntentEffect]
    ) -> [PlacementID] {
        let tapped = job.tap.placement
        let app = job.tap.app
        let reloads: IntentReloads
        if case .performed = result { reloads = job.definition.reloads.merged(with: asked) } else { reloads = asked }
        let tappedKind = tapped.flatMap { placements[$0]?.kind }
        var reloaded: [PlacementID] = []
        switch reloads {
        case .tappedWidget:
            if let tapped {
                effects.append(.reloadPlacement(tapped))
                reloaded = [tapped]
            }
        case .kinds(let kinds):
            if let tapped, tappedKind.map({ !kinds.contains($0) }) ?? true {
                effects.append(.reloadPlacement(tapped))
                reloaded = [tapped]
            }
            for kind in kinds.sorted() { effects.append(.reloadTimelines(ofKind: kind, app: app)) }
            reloaded += placements(of: app) { kinds.contains($0.kind) }
        case .allTimelines:
            effects.append(.reloadAllTimelines(app: app))
            reloaded = placements(of: app) { _ in true }
        }
        return reloaded
    }

    /// `app`'s placements that `include`, in id order.
    private func placements(of app: AppID, _ include: (PlacedWidget) -> Bool) -> [PlacementID] {
        placements.filter { $0.value.app == app && include($0.value) }.keys.sorted { $0.rawValue < $1.rawValue }
    }

    /// Runs the target's waiting taps until one holds it (a handler call) or none are left.
    mutating func runWaiting(on target: TapTarget, effects: inout [IntentEffect]) {
        while busy[target] == nil, let job = waiting[target]?.popFirst() {
            run(job, effects: &effects)
        }
        if waiting[target]?.isEmpty == true { waiting[target] = nil }
    }

    mutating func finish(
        key: IdempotencyLedger.Key, tap: WidgetTap, result: TapResult, reloaded: [PlacementID] = [],
        effects: inout [IntentEffect]
    ) {
        let completion = TapCompletion(
            idempotencyKey: tap.idempotencyKey, app: tap.app, target: tap.target, intent: tap.intent,
            result: result, replayed: false, reloaded: reloaded)
        ledger.finish(key, completion, expiresAt: now + settings.idempotencyWindow)
        effects.append(.completed(completion))
    }
}
