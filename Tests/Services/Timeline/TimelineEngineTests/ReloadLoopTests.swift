import Foundation
import GlimpseVocabulary
import Testing
@testable import TimelineEngine
import EngineTesting

/// A provider is never called in a tight loop, even while its app is active (no budget).
@Suite("No reload loops while the app is active")
struct ReloadLoopTests {
    enum Answer: String, CaseIterable, CustomTestStringConvertible {
        /// `.atEnd` with its single entry dated now: due again at once after each answer.
        case atEndSingleEntryNow
        /// No entries at all.
        case emptyTimeline
        /// `.after(now)`.
        case afterNow
        var testDescription: String { rawValue }

        func timeline(at now: Date) -> Timeline {
            switch self {
            case .atEndSingleEntryNow: Timeline(entries: [TimelineEntry(date: now, content: [1])], policy: .atEnd)
            case .emptyTimeline: Timeline(entries: [], policy: .atEnd)
            case .afterNow: Timeline(entries: [TimelineEntry(date: now, content: [1])], policy: .after(now))
            }
        }
    }

    @Test("a timeline due again at once is asked for again only after the minimum spacing", arguments: Answer.allCases)
    func policyDueNow(answer: Answer) throws {
        let h = try Fixture.harness()
        h.provider = { _, now in .timeline(answer.timeline(at: now)) }
        h.run { $0.setAppActive(Fixture.app, true) }
        try h.advance(minutes: 1)  // before the fix: never returned (now: fails with noProgress)
        #expect(h.fetchMinutes(of: 1) == [0])
        try h.advance(minutes: 30)
        // Every 5 minutes (the spacing), free while the app is active.
        #expect(h.fetchMinutes(of: 1) == [0, 5, 10, 15, 20, 25, 30])
        #expect(h.fetches(of: 1).allSatisfy { !$0.request.charged })
    }

    @Test("an app that asks for a reload from inside its provider is held to the minimum interval")
    func appRequestFromProvider() throws {
        let h = try Fixture.harness()
        h.run { $0.setAppActive(Fixture.app, true) }
        try h.settle()
        var asked = 0
        h.provider = { _, now in
            asked += 1
            return .timeline(Timeline(entries: [TimelineEntry(date: now, content: [1])], policy: .never))
        }
        // The app reloads every time it is asked for a timeline.
        for _ in 0..<10 {
            h.run { $0.reloadAllTimelines(app: Fixture.app) }
            try h.settle()
        }
        #expect(asked == 0)  // the placement's own reload just went out: they wait for the interval
        try h.advance(minutes: 1)
        let interval = TimelineSettings.defaults.minimumReloadInterval
        #expect(asked == 1)  // and coalesce into one call
        #expect(h.fetchMinutes(of: 1) == [0, interval / 60])
    }

    @Test("a tap reloads at once even right after another reload: it is one user event, not a loop")
    func tapsAreNotHeld() throws {
        let h = try Fixture.harness()
        try h.settle()
        try h.run { try $0.reload(1, reason: .intentPerformed) }
        try h.settle()
        try h.run { try $0.reload(1, reason: .intentPerformed) }
        try h.settle()
        #expect(h.fetchMinutes(of: 1) == [0, 0, 0])
    }
}
