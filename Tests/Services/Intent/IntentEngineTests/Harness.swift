import Foundation
import GlimpseVocabulary
import Testing
@testable import IntentEngine
import EngineTesting

/// An executor on a virtual clock, recording every effect.
final class IntentHarness {
    let clock = VirtualClock()
    var executor: IntentExecutor
    private(set) var log: [IntentEffect] = []
    private var keys = 0

    init(settings: IntentSettings = .defaults) {
        executor = IntentExecutor(clock: clock, settings: settings)
    }

    /// Taps with a fresh idempotency key unless one is given; returns that call's effects.
    /// A placement not yet on the device is placed first, as `app`'s `kind` in `family`
    /// (the device's record, as the timeline service would report it).
    @discardableResult
    func tap(
        _ intent: String, placement: PlacementID = 1, kind: String = Fixture.kind, family: WidgetFamily = .systemMedium,
        parameters: [String: TypedValue] = [:], key: String? = nil, app: AppID = Fixture.app
    ) -> [IntentEffect] {
        keys += 1
        if executor.placement(placement) == nil {
            executor.placementAdded(placement, PlacedWidget(app: app, kind: kind, family: family))
        }
        let effects = executor.tap(
            WidgetTap(
                idempotencyKey: key ?? "tap-\(keys)", app: app, placement: placement, intent: intent,
                parameters: parameters))
        log += effects
        return effects
    }

    @discardableResult
    func handlerFinished(
        _ call: HandlerCall, _ outcome: IntentExecutor.HandlerOutcome, asked: IntentReloads = .tappedWidget
    ) -> [IntentEffect] {
        let effects = executor.handlerFinished(call.id, outcome, asked: asked)
        log += effects
        return effects
    }

    /// Moves the clock, firing handler timeouts on the way.
    func advance(seconds: TimeInterval) throws {
        try clock.advance(
            to: clock.now.addingTimeInterval(seconds),
            nextDeadline: { self.executor.nextDeadline() },
            fire: { _ in self.log += self.executor.fireDue() })
    }

    var completions: [TapCompletion] { log.compactMap { if case .completed(let c) = $0 { c } else { nil } } }
    var reloads: [PlacementID] { log.compactMap { if case .reloadPlacement(let p) = $0 { p } else { nil } } }
    var handlerCalls: [HandlerCall] { log.compactMap { if case .callHandler(let c) = $0 { c } else { nil } } }

    func value(_ key: String) -> TypedValue? { executor.store.value(key, in: Fixture.group) }
}

enum Fixture {
    static let app: AppID = "com.example.counter"
    static let group: GroupID = "group.com.example.counter"
    static let kind = "CounterWidget"

    /// Intents: Increment (count += 1), Toggle (flag), SetName(name: String, required),
    /// Greet (handler), Rename(name, default "anon") and Broken (toggles a string: fails).
    static let intents: [IntentDefinition] = [
        IntentDefinition(
            type: "Increment", title: "Add one",
            action: .store(group: group, operations: [.increment(key: "count", by: 1)]), widgetKinds: [kind]),
        IntentDefinition(
            type: "Toggle", title: "Toggle", action: .store(group: group, operations: [.toggle(key: "flag")]),
            widgetKinds: [kind]),
        IntentDefinition(
            type: "SetName", title: "Set name", parameters: [IntentParameter(name: "name", type: .string)],
            action: .store(group: group, operations: [.set(key: "name", to: .parameter("name"))]), widgetKinds: [kind]),
        IntentDefinition(
            type: "Rename", title: "Rename",
            parameters: [IntentParameter(name: "name", type: .string, defaultValue: .string("anon"))],
            action: .store(group: group, operations: [.set(key: "name", to: .parameter("name"))]), widgetKinds: [kind]),
        IntentDefinition(type: "Greet", title: "Greet", action: .handler, widgetKinds: [kind]),
        IntentDefinition(
            type: "Broken", title: "Broken",
            action: .store(
                group: group,
                operations: [
                    .increment(key: "count", by: 1), .toggle(key: "name"),
                ]), widgetKinds: [kind]),
    ]

    static func harness(settings: IntentSettings = .defaults) throws -> IntentHarness {
        let h = IntentHarness(settings: settings)
        try h.executor.install(app: app, groups: [group], intents: intents)
        return h
    }
}
