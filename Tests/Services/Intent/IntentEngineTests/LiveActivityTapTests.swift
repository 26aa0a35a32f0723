import Testing
@testable import IntentEngine
import GlimpseVocabulary

/// Buttons and Toggles in a Live Activity's views run a `LiveActivityIntent` (spec §3:
/// interactive on the Lock Screen and in the expanded Dynamic Island). The activity has
/// no timeline: nothing is reloaded for it; its handler updates it through ActivityKit.
@Suite("Live Activity taps")
struct LiveActivityTapTests {
    static let attributes = "FilmPlaybackAttributes"
    static let film = TapTarget.activity(id: "A1", attributesType: attributes)

    /// The counter app, plus PlayPause (a handler) and Bump (count += 1, every timeline
    /// reloaded) offered by FilmPlaybackAttributes' views, and Greet by the widget only.
    static func harness() throws -> IntentHarness {
        let h = IntentHarness()
        var intents = Fixture.intents
        intents.append(
            IntentDefinition(
                type: "PlayPause", title: "Play or pause", parameters: [IntentParameter(name: "value", type: .bool)],
                action: .handler, widgetKinds: [], activityAttributes: [attributes]))
        intents.append(
            IntentDefinition(
                type: "Bump", title: "Bump",
                action: .store(group: Fixture.group, operations: [.increment(key: "count", by: 1)]),
                widgetKinds: [Fixture.kind], reloads: .allTimelines, activityAttributes: [attributes]))
        try h.executor.install(app: Fixture.app, groups: [Fixture.group], intents: intents)
        return h
    }

    static func tap(
        _ h: IntentHarness, _ intent: String, target: TapTarget = film, key: String,
        parameters: [String: TypedValue] = [:]
    ) -> [IntentEffect] {
        let effects = h.executor.tap(
            WidgetTap(
                idempotencyKey: key, app: Fixture.app, target: target, intent: intent, parameters: parameters))
        return effects
    }

    static func calls(_ effects: [IntentEffect]) -> [HandlerCall] {
        effects.compactMap { if case .callHandler(let c) = $0 { c } else { nil } }
    }

    static func completions(_ effects: [IntentEffect]) -> [TapCompletion] {
        effects.compactMap { if case .completed(let c) = $0 { c } else { nil } }
    }

    static func reloads(_ effects: [IntentEffect]) -> [IntentEffect] {
        effects.filter {
            switch $0 {
            case .reloadPlacement, .reloadTimelines, .reloadAllTimelines: true
            default: false
            }
        }
    }

    @Test("a handler intent calls the app with the activity, completes on its answer, and reloads no placement")
    func handlerIntentRunsForTheActivity() throws {
        let h = try Self.harness()
        let out = Self.tap(h, "PlayPause", key: "k1", parameters: ["value": .bool(false)])
        let call = try #require(Self.calls(out).first)
        #expect(call.target == Self.film)
        #expect(call.placement == nil)
        #expect(call.parameters == ["value": .bool(false)])
        #expect(Self.completions(out).isEmpty)

        let answered = h.executor.handlerFinished(call.id, .succeeded(nil))
        let completion = try #require(Self.completions(answered).first)
        #expect(completion.target == Self.film)
        #expect(completion.result == .performed(nil))
        #expect(Self.reloads(answered).isEmpty)

        // A failed perform() reloads nothing either: there is no timeline to correct.
        let second = try #require(
            Self.calls(Self.tap(h, "PlayPause", key: "k2", parameters: ["value": .bool(true)])).first)
        let failed = h.executor.handlerFinished(second.id, .failed(message: "no player"))
        #expect(Self.completions(failed).first?.result == .failed(.handler(message: "no player")))
        #expect(Self.reloads(failed).isEmpty)
    }

    @Test("what the intent asks WidgetCenter for is still reloaded; the activity is not")
    func askedReloadsStillHappen() throws {
        let h = try Self.harness()
        let out = Self.tap(h, "Bump", key: "k1")
        #expect(Self.completions(out).first?.result == .performed(nil))
        #expect(Self.reloads(out) == [.reloadAllTimelines(app: Fixture.app)])
        #expect(h.value("count") == .int(1))
    }

    @Test("an intent the activity's views do not offer, or another attributes type, is refused; nothing runs")
    func notOfferedIsRefused() throws {
        let h = try Self.harness()
        let widgetOnly = Self.tap(h, "Greet", key: "k1")
        #expect(
            Self.completions(widgetOnly).first?.result
                == .refused(.notOfferedByActivity(intent: "Greet", attributesType: Self.attributes)))
        #expect(Self.calls(widgetOnly).isEmpty)

        let pizza = TapTarget.activity(id: "A2", attributesType: "PizzaDeliveryAttributes")
        let other = Self.tap(h, "PlayPause", target: pizza, key: "k2", parameters: ["value": .bool(true)])
        #expect(
            Self.completions(other).first?.result
                == .refused(.notOfferedByActivity(intent: "PlayPause", attributesType: "PizzaDeliveryAttributes")))
        #expect(Self.calls(other).isEmpty)

        // Parameters are checked as for widgets: Live Activities do not prompt either.
        let missing = Self.tap(h, "PlayPause", key: "k3")
        #expect(Self.completions(missing).first?.result == .refused(.missingParameter("value")))
    }

    @Test("locked, a Live Activity's buttons are inactive too")
    func lockedDeviceRefuses() throws {
        let h = try Self.harness()
        h.executor.setDeviceLocked(true)
        #expect(Self.completions(Self.tap(h, "Bump", key: "k1")).first?.result == .refused(.deviceLocked))
        #expect(h.value("count") == nil)
        h.executor.setDeviceLocked(false)
        #expect(Self.completions(Self.tap(h, "Bump", key: "k2")).first?.result == .performed(nil))
    }

    @Test("taps on one activity wait for its handler call; another activity and a widget do not")
    func orderPerActivity() throws {
        let h = try Self.harness()
        let first = try #require(
            Self.calls(Self.tap(h, "PlayPause", key: "k1", parameters: ["value": .bool(false)])).first)
        // Same activity: waits.
        #expect(Self.calls(Self.tap(h, "PlayPause", key: "k2", parameters: ["value": .bool(true)])).isEmpty)
        // Another activity and a widget placement: run at once.
        let other = TapTarget.activity(id: "A9", attributesType: Self.attributes)
        #expect(
            Self.calls(Self.tap(h, "PlayPause", target: other, key: "k3", parameters: ["value": .bool(true)])).count
                == 1)
        h.tap("Greet", placement: 4, key: "k4")
        #expect(h.handlerCalls.map(\.placement) == [4])

        let answered = h.executor.handlerFinished(first.id, .succeeded(nil))
        let next = try #require(Self.calls(answered).first)
        #expect(next.target == Self.film)
        #expect(next.parameters == ["value": .bool(true)])
    }

    @Test("a replayed key answers the first result and calls nothing again")
    func replay() throws {
        let h = try Self.harness()
        let call = try #require(
            Self.calls(Self.tap(h, "PlayPause", key: "k1", parameters: ["value": .bool(false)])).first)
        _ = h.executor.handlerFinished(call.id, .succeeded(nil))
        let again = Self.tap(h, "PlayPause", key: "k1", parameters: ["value": .bool(false)])
        #expect(Self.calls(again).isEmpty)
        let replayed = try #require(Self.completions(again).first)
        #expect(replayed.replayed && replayed.result == .performed(nil) && replayed.target == Self.film)
    }
}
