import Testing
@testable import IntentEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Intent catalog")
struct CatalogTests {
    static func install(_ intents: [IntentDefinition], groups: Set<GroupID> = ["g"]) throws {
        var executor = IntentExecutor(clock: IntentHarness().clock)
        try executor.install(app: "a", groups: groups, intents: intents)
    }

    @Test("a declarative action may only write the app's own App Groups")
    func groupMembership() {
        let intent = IntentDefinition(
            type: "X", title: "X", action: .store(group: "other", operations: [.toggle(key: "k")]), widgetKinds: ["W"])
        #expect(throws: IntentCatalogError.groupNotInApp(intent: "X", group: "other")) { try Self.install([intent]) }
    }

    @Test("a set from a parameter needs that parameter; an action needs a step; types must be unique")
    func wellFormed() {
        let fromMissing = IntentDefinition(
            type: "X", title: "X", action: .store(group: "g", operations: [.set(key: "k", to: .parameter("p"))]),
            widgetKinds: ["W"])
        #expect(throws: IntentCatalogError.unknownParameterReference(intent: "X", parameter: "p")) {
            try Self.install([fromMissing])
        }
        let empty = IntentDefinition(
            type: "E", title: "E", action: .store(group: "g", operations: []), widgetKinds: ["W"])
        #expect(throws: IntentCatalogError.emptyAction(intent: "E")) { try Self.install([empty]) }
        let handler = IntentDefinition(type: "H", title: "H", action: .handler, widgetKinds: ["W"])
        #expect(throws: IntentCatalogError.duplicateIntent("H")) { try Self.install([handler, handler]) }
        let badDefault = IntentDefinition(
            type: "D", title: "D", parameters: [IntentParameter(name: "n", type: .int, defaultValue: .string("1"))],
            action: .handler, widgetKinds: ["W"])
        #expect(throws: IntentCatalogError.defaultValueTypeMismatch(intent: "D", parameter: "n")) {
            try Self.install([badDefault])
        }
    }

    @Test("an app installs once; after uninstall its taps are refused")
    func installOnce() throws {
        let h = try Fixture.harness()
        #expect(throws: IntentCatalogError.appAlreadyInstalled(Fixture.app)) {
            try h.executor.install(app: Fixture.app, groups: [], intents: [])
        }
        h.executor.uninstall(app: Fixture.app)
        let effects = h.tap("Increment")
        #expect(
            effects.contains {
                if case .completed(let c) = $0 { c.result == .refused(.unknownApp(Fixture.app)) } else { false }
            })
    }
}
