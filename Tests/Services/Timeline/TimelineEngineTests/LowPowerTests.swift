import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Low Power Mode")
struct LowPowerTests {
    @Test("by default (UNCONFIRMED: the spec has no number) Low Power Mode doubles an after(15 min) to 30 min")
    func defaultFactor() throws {
        let h = try Fixture.harness()
        h.provider = BudgetTests.asksAgain(after: 15)
        h.run { $0.setLowPowerMode(true) }
        try h.advance(minutes: 61)
        #expect(h.fetchMinutes(of: 1) == [0, 30, 60])
    }

    @Test(
        "\"Low power mode stretches intervals\": after(15 min) becomes every 30 min, and back", arguments: [2.0, 3.0])
    func stretchesPolicyIntervals(factor: Double) throws {
        var settings = TimelineSettings.defaults
        settings.lowPowerStretchFactor = factor
        let h = try Fixture.harness(settings: settings)
        h.provider = BudgetTests.asksAgain(after: 15)
        try h.advance(minutes: 30)
        h.run { $0.setLowPowerMode(true) }
        try h.advance(minutes: 15 * factor * 2)
        let low = 30 + 15 * factor
        #expect(h.fetchMinutes(of: 1) == [0, 15, 30, low, low + 15 * factor])
        h.run { $0.setLowPowerMode(false) }
        try h.advance(minutes: 15)
        #expect(h.fetchMinutes(of: 1).last == (low + 15 * factor) + 15)
    }

    @Test("the minimum spacing stretches too; free reloads are not stretched")
    func stretchesSpacing() throws {
        let h = try Fixture.harness()
        h.run { $0.setLowPowerMode(true) }
        h.provider = BudgetTests.asksAgain(after: 1)
        try h.advance(minutes: 25)
        #expect(h.fetchMinutes(of: 1) == [0, 10, 20])
        try h.run { try $0.reload(1, reason: .intentPerformed) }
        try h.settle()
        #expect(h.fetchMinutes(of: 1) == [0, 10, 20, 25])
    }
}
