#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import ActivityEngine
import EngineTesting
import GlimpseJSON
import GlimpseVocabulary

@Suite("Presentation (spec §6)")
struct PresentationTests {
    @Test("one app with activities → compact leading/trailing for its most relevant one")
    func oneAppCompact() throws {
        var h = Harness()
        _ = try h.requestPizza(relevance: 10)
        let best = try h.requestPizza(relevance: 90)
        #expect(h.engine.presentation().dynamicIsland == .compact(best))
    }

    @Test("several apps → the two most relevant, both minimal")
    func severalAppsMinimal() throws {
        var h = Harness()
        h.engine.install("com.example.third", InstalledApp(attributeTypes: [Harness.pizzaType]))
        let film = try h.requestFilm(relevance: 50)
        let pizza = try h.requestPizza(relevance: 100)
        _ = try h.requestPizza(driver: "B", relevance: 1, app: "com.example.third")
        #expect(h.engine.presentation().dynamicIsland == .minimal(attached: pizza, detached: film))
    }

    @Test("equal relevance → the one started first wins")
    func tieStartedFirst() throws {
        var h = Harness()
        h.engine.install("com.example.third", InstalledApp(attributeTypes: [Harness.pizzaType]))
        let first = try h.requestFilm()
        try h.advance(by: 5)
        let second = try h.requestPizza()
        try h.advance(by: 5)
        _ = try h.requestPizza(app: "com.example.third")
        #expect(h.engine.presentation().dynamicIsland == .minimal(attached: first, detached: second))
    }

    @Test("an alerting update expands briefly (setting, default 4 s), then back to compact")
    func alertExpands() throws {
        var h = Harness()
        let id = try h.requestPizza()
        _ = h.engine.update(
            id, content: content(["driverName": "John"]), alert: AlertConfiguration(title: "New driver", body: "John"))
        let layout = h.engine.presentation()
        #expect(layout.dynamicIsland == .expanded(id, reason: .alert))
        #expect(layout.validUntil == h.now + 4)
        try h.advance(by: 4)
        #expect(h.engine.presentation().dynamicIsland == .compact(id))
    }

    @Test("a long press expands the pressed activity")
    func longPress() throws {
        var h = Harness()
        let film = try h.requestFilm(relevance: 1)
        _ = try h.requestPizza(relevance: 99)
        #expect(h.engine.presentation(longPressed: film).dynamicIsland == .expanded(film, reason: .longPress))
    }

    @Test(
        "lock screen order by relevance; ended activities stay there but leave the Dynamic Island; pending shows nowhere"
    )
    func lockScreen() throws {
        var h = Harness()
        let low = try h.requestPizza(relevance: 1)
        let high = try h.requestFilm(relevance: 80)
        let mid = try h.requestPizza(relevance: 40)
        _ = try h.engine.request(
            app: Harness.pizzaApp, attributes: pizzaAttributes(), content: content(["driverName": "Later"]),
            startDate: h.now + 600
        ).get()
        #expect(h.engine.presentation().lockScreen == [high, mid, low])
        _ = h.engine.end(high)
        let layout = h.engine.presentation()
        #expect(layout.lockScreen == [high, mid, low])
        #expect(layout.dynamicIsland == .compact(mid))
    }

    @Test("no activities → nothing in the Dynamic Island")
    func empty() {
        let layout = PresentationRules.layout(of: [ActivitySnapshot](), now: Date())
        #expect(layout == PresentationLayout(dynamicIsland: .none, lockScreen: [], validUntil: nil))
    }
}
