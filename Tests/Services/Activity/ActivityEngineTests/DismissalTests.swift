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

@Suite("Dismissal policy (S15)")
struct DismissalTests {
    /// (policy as seconds after the end or nil for default/immediate, expected seconds on the lock screen)
    static let cases: [(String, DismissalPolicy?, TimeInterval?, TimeInterval)] = [
        ("default: up to 4 h", .default, nil, 4 * 3600),
        ("immediate: at once", .immediate, nil, 0),
        ("after 30 min", nil, 1800, 1800),
        ("after 6 h is capped at 4 h", nil, 6 * 3600, 4 * 3600),
        ("after a past date is immediate", nil, -60, 0),
    ]

    @Test("dismissal default (up to 4 h), immediate, after(d) capped at 4 h", arguments: cases)
    func dismissalDate(name: String, policy: DismissalPolicy?, after: TimeInterval?, expected: TimeInterval) throws {
        var h = Harness()
        let id = try h.requestPizza()
        let endedAt = h.now
        let resolved = policy ?? .after(endedAt + after!)
        let result = h.engine.end(id, dismissalPolicy: resolved)
        if expected == 0 {
            #expect(result == .applied(.dismissed, dismissalDate: endedAt))
            #expect(h.engine.state(of: id) == .dismissed)
            return
        }
        #expect(result == .applied(.ended, dismissalDate: endedAt + expected))
        try h.advance(by: expected - 1)
        #expect(h.engine.state(of: id) == .ended)
        try h.advance(by: 1)
        #expect(h.engine.state(of: id) == .dismissed)
    }

    @Test("an ended activity no longer counts toward the per-app limit")
    func endedFreesSlot() throws {
        var h = Harness(config: ActivitySettings(targetMaximum: 1))
        let id = try h.requestPizza()
        #expect(throws: ActivityAuthorizationError.targetMaximumExceeded) { try h.requestPizza() }
        _ = h.engine.end(id)
        #expect(h.engine.state(of: id) == .ended)
        #expect(throws: Never.self) { try h.requestPizza() }
    }

    @Test("a dismissed activity still names its app (the events of its removal carry it)")
    func removedActivityKeepsItsApp() throws {
        var h = Harness()
        let id = try h.requestPizza()
        _ = h.engine.end(id, dismissalPolicy: .immediate)
        #expect(h.engine.manager.activity(id) == nil)
        #expect(h.engine.manager.app(of: id) == Harness.pizzaApp)
        #expect(h.engine.manager.app(of: ActivityID(UUID())) == nil)
    }
}
