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

    @Test("a dismissed activity is listed, as it was last, for an hour after its dismissal")
    func dismissedListedForAnHour() throws {
        var h = Harness()
        let id = try h.requestPizza()
        _ = h.engine.end(id, dismissalPolicy: .immediate)
        #expect(h.engine.manager.activity(id) == nil)
        #expect(h.engine.manager.activity(id, includingDismissed: true)?.state == .dismissed)
        #expect(h.engine.manager.dismissedActivities().map(\.id) == [id])
        #expect(h.engine.manager.dismissedActivities(of: Harness.pizzaApp).map(\.id) == [id])
        #expect(h.engine.manager.dismissedActivities(of: Harness.filmApp).isEmpty)
        try h.advance(by: ActivityManager.dismissedRetention - 1)
        #expect(h.engine.manager.dismissedActivities().map(\.id) == [id])
        try h.advance(by: 1)
        #expect(h.engine.manager.dismissedActivities().isEmpty)
        #expect(h.engine.manager.activity(id, includingDismissed: true) == nil)
    }

    @Test("at most dismissedKept dismissed activities are kept, the newest")
    func dismissedKeptIsBounded() throws {
        var h = Harness()
        var ids: [ActivityID] = []
        for _ in 0...ActivityManager.dismissedKept {
            let id = try h.requestPizza()
            _ = h.engine.end(id, dismissalPolicy: .immediate)
            ids.append(id)
        }
        let listed = h.engine.manager.dismissedActivities()
        #expect(listed.count == ActivityManager.dismissedKept)
        #expect(listed.first?.id == ids.last)
        #expect(!listed.contains { $0.id == ids.first })
        #expect(h.engine.manager.dismissed.count == ActivityManager.dismissedKept)
    }

    @Test("a snapshot saved before dismissed activities were kept restores, with none listed")
    func snapshotWithoutDismissedRestores() throws {
        var h = Harness()
        let id = try h.requestPizza()
        _ = h.engine.end(id, dismissalPolicy: .immediate)
        // The snapshot's timers keep NaN for "none"; JSON spells it as a string here.
        let floats = (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
        let saved = try encoder.encode(Saved(manager: h.engine.manager))
        guard case .object(let members) = try JSONParser.parse(Array(saved)) else { throw CancellationError() }
        #expect(members.contains { $0.key == "dismissed" })
        let older = Data(JSONValue.object(members.filter { $0.key != "dismissed" }).serialized())
        let restored = try decoder.decode(Restored.self, from: older).manager
        #expect(restored.dismissedActivities().isEmpty)
        #expect(restored.app(of: id) == Harness.pizzaApp)
        let full = try decoder.decode(Restored.self, from: saved).manager
        #expect(full.dismissedActivities().map(\.id) == [id])
    }

    struct Saved: Encodable {
        var manager: ActivityManager
        func encode(to encoder: any Encoder) throws { try manager.encodeFields(to: encoder) }
    }

    struct Restored: Decodable {
        var manager = ActivityManager(clock: VirtualClock(), identifiers: SequentialIdentifiers())
        init(from decoder: any Decoder) throws { try manager.restoreFields(from: decoder) }
    }
}
