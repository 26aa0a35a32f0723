import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Reload budget (per placement, rolling 24 h)")
struct BudgetTests {
    /// A provider whose timelines ask again after `minutes`.
    static func asksAgain(after minutes: Double) -> (FetchRequest, Date) -> Harness.Answer {
        { _, now in
            .timeline(
                Timeline(entries: [TimelineEntry(date: now)], policy: .after(now.addingTimeInterval(minutes * 60))))
        }
    }

    @Test("the defaults: 70 reloads a day, a 24 h window, 5 minutes apart")
    func defaults() {
        let settings = TimelineSettings.defaults
        #expect(settings.dailyReloadBudget == 70)
        #expect(settings.budgetWindow == 24 * 3600)
        #expect(settings.minimumReloadSpacing == 5 * 60)
    }

    @Test("\"at least 5 minutes apart\": a policy asking every minute is reloaded every 5")
    func spacing() throws {
        let h = try Fixture.harness()
        h.provider = Self.asksAgain(after: 1)
        try h.advance(minutes: 21)
        #expect(h.fetchMinutes(of: 1) == [0, 5, 10, 15, 20])
        let deferred = try #require(h.fetches(of: 1).last?.request)
        #expect(deferred.wantedAt == h.date(minutes: 16))
        #expect(deferred.dueAt == h.date(minutes: 20))
    }

    @Test("\"default 70 reloads a day\": the 71st charged reload waits until the first leaves the rolling window")
    func dailyLimit() throws {
        let h = try Fixture.harness()
        h.provider = Self.asksAgain(after: 5)
        try h.advance(minutes: 1440)
        let charged = h.fetches(of: 1).filter(\.request.charged)
        #expect(charged.count == 70)
        #expect(charged.map(\.minute) == (1...70).map { Double($0 * 5) })
        #expect(h.scheduler.reloadsUsed(by: 1) == 70)
        // The first charge (minute 5) ages out at minute 5 + 1440: budget frees, the reload goes.
        try h.advance(minutes: 10)
        #expect(h.fetchMinutes(of: 1).suffix(2) == [1445, 1450])
        #expect(h.scheduler.reloadsUsed(by: 1) == 70)
    }

    @Test("\"A due reload with no budget left is deferred to when budget frees, never dropped\"")
    func deferredNotDropped() throws {
        var settings = TimelineSettings.defaults
        settings.dailyReloadBudget = 3
        let h = try Fixture.harness(settings: settings)  // policy .never
        for _ in 0..<6 {
            try h.advance(minutes: 10)
            h.run { $0.reloadAllTimelines(app: Fixture.app) }
        }
        try h.advance(minutes: 5)
        #expect(h.fetchMinutes(of: 1) == [0, 10, 20, 30])  // three charged; requests at 40, 50, 60 wait
        try h.advance(minutes: 24 * 60)
        // The oldest charge (minute 10) frees at 10 + 1440; the waiting requests went out as one call.
        #expect(h.fetchMinutes(of: 1) == [0, 10, 20, 30, 1450])
        let late = try #require(h.fetches(of: 1).last?.request)
        #expect(late.wantedAt == h.date(minutes: 40))
        #expect(late.charged)
    }

    @Test("budgets are per placement: one widget's reloads do not spend another's")
    func perPlacement() throws {
        var settings = TimelineSettings.defaults
        settings.dailyReloadBudget = 2
        let h = try Fixture.harness(placements: 2, settings: settings)
        try h.advance(minutes: 10)
        for _ in 0..<3 {
            try h.run { try $0.reload(1, reason: .appRequest) }
            try h.advance(minutes: 10)
        }
        try h.run { try $0.reload(2, reason: .appRequest) }
        try h.settle()
        #expect(h.fetchMinutes(of: 1) == [0, 10, 20])
        #expect(h.fetchMinutes(of: 2) == [0, 40])
        #expect(h.scheduler.reloadsUsed(by: 2) == 1)
    }
}

@Suite("Budget statistics")
struct BudgetStatisticsTests {
    @Test("statistics count the placements whose wanted reload waits for budget")
    func waitingForBudget() throws {
        var settings = TimelineSettings.defaults
        settings.dailyReloadBudget = 1
        let h = try Fixture.harness(placements: 2, settings: settings)
        try h.advance(minutes: 10)
        h.run { $0.reloadAllTimelines(app: Fixture.app) }
        try h.advance(minutes: 10)
        #expect(h.scheduler.statistics().waitingForBudget == 0)
        try h.run { try $0.reload(1, reason: .appRequest) }
        #expect(h.scheduler.statistics().waitingForBudget == 1)
        #expect(h.scheduler.statistics().placements == 2)
        // The charges the budgets hold: one charged reload each, the storage at least that.
        let held = h.scheduler.statistics()
        #expect(held.budgetCharges == (h.scheduler.reloadsUsed(by: 1) ?? 0) + (h.scheduler.reloadsUsed(by: 2) ?? 0))
        #expect(held.budgetCharges > 0 && held.budgetBytes >= held.budgetCharges * 8)
    }
}
