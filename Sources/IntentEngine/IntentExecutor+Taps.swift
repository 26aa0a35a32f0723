import AppIntentValues
import GlimpseVocabulary
import DequeModule
/// Taps: replay, validation, per-placement order, and running declarative actions.
extension IntentExecutor {
    /// A widget was tapped. Returns the tap's completion when it is done at once
    /// (replayed, refused, or a declarative action), or a `.callHandler` to make.
    public mutating func tap(_ tap: WidgetTap) -> [IntentEffect] {
        ledger.expire(at: now)
        var effects: [IntentEffect] = []
        let key = IdempotencyLedger.Key(app: tap.app, key: tap.idempotencyKey)
        if var first = ledger.result(for: key) {
            first.replayed = true
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
                if busy[tap.placement] != nil {
                    waiting[tap.placement, default: []].append(job)
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
        guard let placed = placements[tap.placement] else { return .failure(.unknownPlacement(tap.placement)) }
        guard placed.app == tap.app else { return .failure(.placementOfAnotherApp(tap.placement)) }
        guard let definition = app.intents[tap.intent] else { return .failure(.unknownIntent(tap.intent)) }
        guard definition.widgetKinds.contains(placed.kind) else {
            return .failure(.notOfferedByKind(intent: tap.intent, kind: placed.kind))
        }
        guard placed.family.isInteractive else { return .failure(.notInteractive(placed.family)) }
        guard !deviceLocked else { return .failure(.deviceLocked) }
        return definition.resolve(tap.parameters).map { Job(tap: tap, definition: definition, parameters: $0) }
    }

    /// Runs a job now: a declarative action completes at once; a handler call goes out
    /// and holds the placement until it is answered.
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
            appendReloads(of: job, result: result, effects: &effects)
            finish(key: job.key, tap: job.tap, result: result, effects: &effects)
        case .handler:
            callCounter += 1
            let id = CallID(rawValue: callCounter)
            let deadline = now + settings.handlerTimeout
            calls[id] = Call(job: job)
            busy[job.tap.placement] = id
            deadlines.append((deadline, id))
            effects.append(.callHandler(HandlerCall(
                id: id, app: job.tap.app, intent: job.tap.intent, parameters: job.parameters, placement: job.tap.placement)))
        }
    }

    /// The tapped widget's reload, then (if `perform()` succeeded) the ones the intent asks
    /// for. One reload per placement: when what the intent asks for covers the tapped
    /// widget (every timeline, or its kind), that is its reload.
    func appendReloads(of job: Job, result: TapResult, effects: inout [IntentEffect]) {
        guard case .performed = result else {
            effects.append(.reloadPlacement(job.tap.placement))
            return
        }
        let tappedKind = placements[job.tap.placement]?.kind
        switch job.definition.reloads {
        case .tappedWidget:
            effects.append(.reloadPlacement(job.tap.placement))
        case .kinds(let kinds):
            if tappedKind.map({ !kinds.contains($0) }) ?? true { effects.append(.reloadPlacement(job.tap.placement)) }
            for kind in kinds.sorted() { effects.append(.reloadTimelines(ofKind: kind, app: job.tap.app)) }
        case .allTimelines:
            effects.append(.reloadAllTimelines(app: job.tap.app))
        }
    }

    /// Runs the placement's waiting taps until one holds it (a handler call) or none are left.
    mutating func runWaiting(on placement: PlacementID, effects: inout [IntentEffect]) {
        while busy[placement] == nil, let job = waiting[placement]?.popFirst() {
            run(job, effects: &effects)
        }
        if waiting[placement]?.isEmpty == true { waiting[placement] = nil }
    }

    mutating func finish(key: IdempotencyLedger.Key, tap: WidgetTap, result: TapResult, effects: inout [IntentEffect]) {
        let completion = TapCompletion(
            idempotencyKey: tap.idempotencyKey, app: tap.app, placement: tap.placement, intent: tap.intent,
            result: result, replayed: false)
        ledger.finish(key, completion, expiresAt: now + settings.idempotencyWindow)
        effects.append(.completed(completion))
    }
}
