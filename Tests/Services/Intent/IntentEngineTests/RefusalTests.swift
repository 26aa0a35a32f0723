import Testing
@testable import IntentEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Taps that are refused")
struct RefusalTests {
    static func refusal(_ effects: [IntentEffect]) -> TapRefusal? {
        for case .completed(let c) in effects { if case .refused(let r) = c.result { return r } }
        return nil
    }

    @Test(
        "\"Buttons and toggles are refused on accessoryInline\"; the other families take taps",
        arguments: WidgetFamily.allCases)
    func inlineRefused(family: WidgetFamily) throws {
        let h = try Fixture.harness()
        let effects = h.tap("Increment", family: family)
        if family == .accessoryInline {
            #expect(Self.refusal(effects) == .notInteractive(.accessoryInline))
            #expect(h.reloads.isEmpty)
            #expect(h.value("count") == nil)
        } else {
            #expect(Self.refusal(effects) == nil)
            #expect(h.value("count") == .int(1))
        }
    }

    @Test("\"… and while the device is locked\" (spec §3: inactive until unlock)")
    func lockedRefused() throws {
        let h = try Fixture.harness()
        h.executor.setDeviceLocked(true)
        #expect(Self.refusal(h.tap("Increment", family: .accessoryCircular)) == .deviceLocked)
        #expect(h.reloads.isEmpty)
        h.executor.setDeviceLocked(false)
        #expect(Self.refusal(h.tap("Increment", family: .accessoryCircular)) == nil)
        #expect(h.value("count") == .int(1))
    }

    @Test("\"Missing parameters are an error (widgets do not prompt)\"; defaults fill in")
    func missingParameter() throws {
        let h = try Fixture.harness()
        #expect(Self.refusal(h.tap("SetName")) == .missingParameter("name"))
        #expect(h.value("name") == nil)
        #expect(Self.refusal(h.tap("Rename")) == nil)
        #expect(h.value("name") == .string("anon"))
        #expect(h.reloads == [1])
    }

    @Test("wrong parameter types, unknown parameters, unknown intents and apps are refused")
    func badTaps() throws {
        let h = try Fixture.harness()
        #expect(
            Self.refusal(h.tap("SetName", parameters: ["name": .int(3)]))
                == .parameterTypeMismatch(name: "name", expected: .string, got: .int))
        #expect(Self.refusal(h.tap("Increment", parameters: ["by": .int(3)])) == .unknownParameter("by"))
        #expect(Self.refusal(h.tap("Nope")) == .unknownIntent("Nope"))
        #expect(Self.refusal(h.tap("Increment", app: "com.nope")) == .unknownApp("com.nope"))
        #expect(h.reloads.isEmpty)
    }

    @Test("a kind whose view has no button for the intent cannot be tapped for it")
    func kindMustOfferIntent() throws {
        let h = try Fixture.harness()
        #expect(
            Self.refusal(h.tap("Increment", kind: "OtherWidget"))
                == .notOfferedByKind(intent: "Increment", kind: "OtherWidget"))
        #expect(h.reloads.isEmpty)
    }

    @Test("a tap is checked against the placement as placed, not as the tapper describes it: inline stays inline")
    func tapCannotClaimAnotherFamily() throws {
        let h = try Fixture.harness()
        h.executor.placementAdded(7, PlacedWidget(app: Fixture.app, kind: Fixture.kind, family: .accessoryInline))
        // The tap names only the placement; whatever family a caller believes, the record says inline.
        let effects = h.executor.tap(
            WidgetTap(idempotencyKey: "k", app: Fixture.app, placement: 7, intent: "Increment"))
        #expect(Self.refusal(effects) == .notInteractive(.accessoryInline))
        #expect(h.value("count") == nil)
    }

    @Test("taps on unknown, removed or another app's placements are refused")
    func unknownAndForeignPlacements() throws {
        let h = try Fixture.harness()
        try h.executor.install(app: "com.other", groups: [Fixture.group], intents: Fixture.intents)
        h.executor.placementAdded(1, PlacedWidget(app: Fixture.app, kind: Fixture.kind, family: .systemSmall))
        func tap(_ placement: PlacementID, app: AppID, key: String) -> TapRefusal? {
            Self.refusal(
                h.executor.tap(WidgetTap(idempotencyKey: key, app: app, placement: placement, intent: "Increment")))
        }
        #expect(tap(9, app: Fixture.app, key: "a") == .unknownPlacement(9))
        #expect(tap(1, app: "com.other", key: "b") == .placementOfAnotherApp(1))
        h.executor.placementRemoved(1)
        #expect(tap(1, app: Fixture.app, key: "c") == .unknownPlacement(1))
        #expect(h.value("count") == nil)
    }
}
