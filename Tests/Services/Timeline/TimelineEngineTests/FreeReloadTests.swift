import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Reloads the budget does not charge")
struct FreeReloadTests {
    enum Trigger: String, CaseIterable, CustomTestStringConvertible {
        case appInForeground, intentTap, localeChange, accessibilityChange
        var testDescription: String { rawValue }
    }

    /// One placement with its whole budget (2) spent, policy `.never`, at minute 30.
    static func exhausted() throws -> Harness {
        var settings = TimelineSettings.defaults
        settings.dailyReloadBudget = 2
        let h = try Fixture.harness(settings: settings)
        for _ in 0..<2 {
            try h.advance(minutes: 10)
            h.run { $0.reloadAllTimelines(app: Fixture.app) }
            try h.settle()
        }
        try h.advance(minutes: 10)
        #expect(h.scheduler.reloadsUsed(by: 1) == 2)
        return h
    }

    @Test(
        "\"Free (not charged): app in the foreground, the reload after an intent tap, locale or accessibility change\"",
        arguments: Trigger.allCases)
    func freeWithBudgetSpent(trigger: Trigger) throws {
        let h = try Self.exhausted()
        switch trigger {
        case .appInForeground:
            h.run { $0.setAppActive(Fixture.app, true) }
            h.run { $0.reloadAllTimelines(app: Fixture.app) }
        case .intentTap: try h.run { try $0.reload(1, reason: .intentPerformed) }
        case .localeChange: h.run { $0.systemChanged(.locale) }
        case .accessibilityChange: h.run { $0.systemChanged(.accessibility) }
        }
        try h.settle()
        let last = try #require(h.fetches(of: 1).last)
        #expect(last.minute == 30)  // at once, though the budget is spent
        #expect(last.request.charged == false)
        #expect(h.scheduler.reloadsUsed(by: 1) == 2)
    }

    @Test("a reload deferred for budget goes out, free, when the app comes to the foreground")
    func foregroundReleasesDeferred() throws {
        let h = try Self.exhausted()
        h.run { $0.reloadAllTimelines(app: Fixture.app) }
        try h.advance(minutes: 60)
        #expect(h.fetchMinutes(of: 1) == [0, 10, 20])
        h.run { $0.setAppActive(Fixture.app, true) }
        try h.settle()
        #expect(h.fetchMinutes(of: 1) == [0, 10, 20, 90])
        #expect(h.fetches(of: 1).last?.request.charged == false)
        #expect(h.fetches(of: 1).last?.request.reason == .appRequest)
    }

    @Test("free reloads ignore the 5-minute spacing; the next charged one keeps it")
    func freeIgnoresSpacing() throws {
        let h = try Fixture.harness()
        try h.advance(minutes: 10)
        try h.run { try $0.reload(1, reason: .intentPerformed) }
        try h.advance(minutes: 1)
        try h.run { try $0.reload(1, reason: .intentPerformed) }
        try h.advance(minutes: 1)
        h.run { $0.reloadAllTimelines(app: Fixture.app) }
        try h.advance(minutes: 10)
        #expect(h.fetchMinutes(of: 1) == [0, 10, 11, 16])
    }
}

@Suite("Intent reloads and the budget (UNCONFIRMED)")
struct IntentReloadBudgetTests {
    @Test(
        "\"Budget-exempt? UNCONFIRMED (C3 claims yes)\": a setting, default free; off, the reload is charged and waits")
    func intentReloadSetting() throws {
        var settings = TimelineSettings.defaults
        settings.intentReloadsAreFree = false
        settings.dailyReloadBudget = 1
        let h = try Fixture.harness(settings: settings)
        try h.advance(minutes: 10)
        try h.run { try $0.reload(1, reason: .intentPerformed) }
        try h.advance(minutes: 10)
        try h.run { try $0.reload(1, reason: .intentPerformed) }  // no budget left: deferred a day
        try h.advance(minutes: 60)
        #expect(h.fetchMinutes(of: 1) == [0, 10])
        #expect(h.fetches(of: 1).last?.request.charged == true)
        #expect(h.fetches(of: 1).last?.request.reason == .intentPerformed)
        try h.advance(minutes: 24 * 60)
        #expect(h.fetchMinutes(of: 1) == [0, 10, 10 + 24 * 60])
    }
}
