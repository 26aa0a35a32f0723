import Testing
@testable import IntentEngine

@Suite("Taps that are refused")
struct RefusalTests {
    static func refusal(_ effects: [IntentEffect]) -> TapRefusal? {
        for case .completed(let c) in effects { if case .refused(let r) = c.result { return r } }
        return nil
    }

    @Test("\"Buttons and toggles are refused on accessoryInline\"; the other families take taps",
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
        #expect(Self.refusal(h.tap("SetName", parameters: ["name": .int(3)])) ==
            .parameterTypeMismatch(name: "name", expected: .string, got: .int))
        #expect(Self.refusal(h.tap("Increment", parameters: ["by": .int(3)])) == .unknownParameter("by"))
        #expect(Self.refusal(h.tap("Nope")) == .unknownIntent("Nope"))
        #expect(Self.refusal(h.tap("Increment", app: "com.nope")) == .unknownApp("com.nope"))
        #expect(h.reloads.isEmpty)
    }

    @Test("a kind whose view has no button for the intent cannot be tapped for it")
    func kindMustOfferIntent() throws {
        let h = try Fixture.harness()
        #expect(Self.refusal(h.tap("Increment", kind: "OtherWidget")) == .notOfferedByKind(intent: "Increment", kind: "OtherWidget"))
        #expect(h.reloads.isEmpty)
    }
}
