import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

/// Seed 003, the Daily Steps Lock Screen widget:
///
///     // Refresh every 15 minutes
///     let nextUpdate = Calendar.current.date(byAdding: .minute, value: 15, to: .now)!
///     completion(Timeline(entries: [entry], policy: .after(nextUpdate)))
///
/// `.supportedFamilies([.accessoryCircular, .accessoryRectangular, .accessoryInline])`.
@Suite("Seed 003: Daily Steps lock-screen widget")
struct DailyStepsSeedTests {
    static let app: AppID = "com.example.steps"
    static let families: [WidgetFamily] = [.accessoryCircular, .accessoryRectangular, .accessoryInline]

    static func steps() throws -> Harness {
        let h = Harness()
        try h.scheduler.install(
            app: app,
            kinds: [
                WidgetKind(
                    kind: "LockScreenWidget", displayName: "Daily Steps",
                    description: "Your step count on the lock screen.",
                    supportedFamilies: Set(families))
            ])
        var count = 8_420
        h.provider = { _, now in
            count += 100
            return .timeline(
                Timeline(
                    entries: [TimelineEntry(date: now, content: Array("Steps \(count)".utf8))],
                    policy: .after(now.addingTimeInterval(15 * 60))))
        }
        for (i, family) in families.enumerated() {
            try h.run {
                try $0.place(
                    Placement(id: PlacementID(UInt64(i + 1)), app: app, kind: "LockScreenWidget", family: family))
            }
        }
        return h
    }

    @Test(
        "each lock-screen family refreshes every 15 minutes with its own size",
        arguments: zip(
            [PlacementID(1), 2, 3],
            [
                DisplaySize(width: 72, height: 72), DisplaySize(width: 160, height: 72),
                DisplaySize(width: 234, height: 26),
            ]))
    func refreshEveryFifteenMinutes(id: PlacementID, size: DisplaySize) throws {
        let h = try Self.steps()
        try h.advance(minutes: 61)
        #expect(h.fetchMinutes(of: id) == [0, 15, 30, 45, 60])
        #expect(h.fetches(of: id).allSatisfy { $0.request.context.displaySize == size })
        #expect(h.scheduler.placement(id)?.screen == .lockScreen)
        #expect(h.shown(id).count == 6)  // placeholder, then one new entry per call
    }

    @Test("over a day, .after(15 min) wants 96 reloads; the budget gives 70, the rest wait for the window")
    func budgetOverADay() throws {
        let h = try Self.steps()
        try h.advance(minutes: 24 * 60)
        for id: PlacementID in [1, 2, 3] {
            let calls = h.fetches(of: id)
            #expect(calls.filter(\.request.charged).count == 70)
            let last = try #require(calls.last?.minute)
            #expect(last == 1050)  // then nothing until minute 15 leaves the window
            #expect(h.scheduler.nextDeadline() == h.date(minutes: 15 + 24 * 60))
        }
    }
}
