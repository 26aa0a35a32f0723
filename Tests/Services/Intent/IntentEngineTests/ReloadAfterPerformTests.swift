import Testing
@testable import IntentEngine
import GlimpseVocabulary
import EngineTesting

@Suite("One reload after perform")
struct ReloadAfterPerformTests {
    enum Outcome: String, CaseIterable, CustomTestStringConvertible {
        case declarativeSucceeds, declarativeFails, handlerSucceeds, handlerFails, handlerTimesOut
        var testDescription: String { rawValue }
    }

    @Test(
        "\"After perform, exactly one reload of the tapped placement\" — success or failure",
        arguments: Outcome.allCases)
    func exactlyOneReload(outcome: Outcome) throws {
        let h = try Fixture.harness()
        switch outcome {
        case .declarativeSucceeds: h.tap("Increment", placement: 7)
        case .declarativeFails:
            h.executor.store.set("name", to: .string("Remy"), in: Fixture.group)  // a string: toggling it fails
            h.tap("Broken", placement: 7)
            #expect(h.value("count") == nil)  // atomic: the increment before the failing toggle is not kept
        case .handlerSucceeds, .handlerFails, .handlerTimesOut:
            h.tap("Greet", placement: 7)
            #expect(h.reloads.isEmpty)  // not before perform returns
            let call = try #require(h.handlerCalls.first)
            if outcome == .handlerSucceeds { h.handlerFinished(call, .succeeded(nil)) }
            if outcome == .handlerFails { h.handlerFinished(call, .failed(message: "no network")) }
        }
        try h.advance(seconds: 3600)
        #expect(h.reloads == [7])
        let result = try #require(h.completions.first?.result)
        switch outcome {
        case .declarativeSucceeds, .handlerSucceeds: #expect(result == .performed(nil))
        case .declarativeFails:
            #expect(result == .failed(.store(.typeMismatch(key: "name", expected: .bool, found: .string))))
        case .handlerFails: #expect(result == .failed(.handler(message: "no network")))
        case .handlerTimesOut: #expect(result == .failed(.handlerTimedOut))
        }
    }

    @Test("the store change and the reload come before the tapper's answer")
    func effectOrder() throws {
        let h = try Fixture.harness()
        let effects = h.tap("Increment").filter { if case .nextWakeUp = $0 { false } else { true } }
        #expect(effects.count == 3)
        #expect(effects.first == .storeChanged(Fixture.group, sequence: 1))
        #expect(effects[1] == .reloadPlacement(1))
        if case .completed = effects[2] {} else { Issue.record("expected the completion last") }
    }
}

@Suite("Declared reloads after perform")
struct DeclaredReloadTests {
    static func harness(_ reloads: IntentReloads) throws -> IntentHarness {
        let h = IntentHarness()
        try h.executor.install(
            app: Fixture.app, groups: [Fixture.group],
            intents: [
                IntentDefinition(
                    type: "Check", title: "Check",
                    action: .store(group: Fixture.group, operations: [.toggle(key: "flag")]),
                    widgetKinds: [Fixture.kind, "OtherWidget"], reloads: reloads)
            ])
        return h
    }

    static func reloadEffects(_ effects: [IntentEffect]) -> [IntentEffect] {
        effects.filter {
            switch $0 {
            case .reloadPlacement, .reloadTimelines, .reloadAllTimelines: true
            default: false
            }
        }
    }

    @Test("a declared reload that covers the tapped widget is its one reload")
    func coveredByTheDeclaredReload() throws {
        let byKind = try Self.harness(.kinds([Fixture.kind]))
        #expect(
            Self.reloadEffects(byKind.tap("Check", placement: 3)) == [
                .reloadTimelines(ofKind: Fixture.kind, app: Fixture.app)
            ])
        let all = try Self.harness(.allTimelines)
        #expect(Self.reloadEffects(all.tap("Check", placement: 3)) == [.reloadAllTimelines(app: Fixture.app)])
    }

    @Test("a declared reload of other kinds comes after the tapped widget's own")
    func otherKindsFollowTheTappedWidget() throws {
        let h = try Self.harness(.kinds(["OtherWidget"]))
        #expect(
            Self.reloadEffects(h.tap("Check", placement: 3)) == [
                .reloadPlacement(3), .reloadTimelines(ofKind: "OtherWidget", app: Fixture.app),
            ])
    }

    @Test("a failed perform reloads only the tapped widget")
    func failedPerformReloadsTheTappedWidgetOnly() throws {
        let h = try Self.harness(.allTimelines)
        h.executor.store.set("flag", to: .string("x"), in: Fixture.group)  // a string: toggling it fails
        #expect(Self.reloadEffects(h.tap("Check", placement: 3)) == [.reloadPlacement(3)])
    }
}

/// What the app's own `perform()` asks `WidgetCenter` for is part of the tap (seed 004's
/// CheckInIntent calls `reloadAllTimelines()`, seed 000's MarkFilmWatchedIntent
/// `reloadTimelines(ofKind:)`): reloaded with the tap, like a declared reload.
@Suite("Reloads perform() asks for")
struct AskedReloadTests {
    static func reloads(_ effects: [IntentEffect]) -> [IntentEffect] { DeclaredReloadTests.reloadEffects(effects) }

    @Test("a handler that asked for every timeline: that is the tap's reload, and every placement of the app is in it")
    func allTimelines() throws {
        let h = try Fixture.harness()
        h.tap("Greet", placement: 3)
        h.executor.placementAdded(4, PlacedWidget(app: Fixture.app, kind: "LockWidget", family: .accessoryRectangular))
        let call = try #require(h.handlerCalls.first)
        let effects = h.handlerFinished(call, .succeeded(nil), asked: .allTimelines)
        #expect(Self.reloads(effects) == [.reloadAllTimelines(app: Fixture.app)])
        #expect(h.completions.first?.reloaded == [3, 4])
    }

    @Test("a handler that asked for another kind: the tapped widget's reload, then the kind's")
    func otherKind() throws {
        let h = try Fixture.harness()
        h.tap("Greet", placement: 3)
        let call = try #require(h.handlerCalls.first)
        let effects = h.handlerFinished(call, .succeeded(nil), asked: .kinds(["OtherWidget"]))
        #expect(
            Self.reloads(effects) == [.reloadPlacement(3), .reloadTimelines(ofKind: "OtherWidget", app: Fixture.app)])
    }

    @Test("asked for and then failed: what was asked is still reloaded (the calls were made)")
    func askedThenFailed() throws {
        let h = try Fixture.harness()
        h.tap("Greet", placement: 3)
        let call = try #require(h.handlerCalls.first)
        let effects = h.handlerFinished(call, .failed(message: "no network"), asked: .kinds([Fixture.kind]))
        #expect(Self.reloads(effects) == [.reloadTimelines(ofKind: Fixture.kind, app: Fixture.app)])
    }

    @Test("merging what is declared and what is asked")
    func merging() {
        #expect(IntentReloads.tappedWidget.merged(with: .kinds(["A"])) == .kinds(["A"]))
        #expect(IntentReloads.kinds(["A"]).merged(with: .kinds(["B"])) == .kinds(["A", "B"]))
        #expect(IntentReloads.kinds(["A"]).merged(with: .allTimelines) == .allTimelines)
        #expect(IntentReloads.allTimelines.merged(with: .tappedWidget) == .allTimelines)
        #expect(IntentReloads.kinds(["A"]).merged(with: .tappedWidget) == .kinds(["A"]))
    }
}
