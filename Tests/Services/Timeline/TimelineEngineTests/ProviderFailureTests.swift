import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Provider failures and timeouts")
struct ProviderFailureTests {
    @Test("\"A failure … keeps the last timeline (show last-known state, never an error) and retries with backoff\"")
    func failureKeepsLastAndRetries() throws {
        let h = try Fixture.harness()
        h.provider = { _, now in
            .timeline(
                Timeline(
                    entries: [TimelineEntry(date: now, content: [1])], policy: .after(now.addingTimeInterval(3600))))
        }
        try h.settle()
        h.provider = { _, _ in .failure }
        try h.advance(minutes: 60 + 1 + 2 + 4 + 0.5)
        // The policy call at 60 fails; retries after 1, 2 and 4 minutes (base 60 s, ×2).
        #expect(h.fetchMinutes(of: 1) == [0, 60, 61, 63, 67])
        #expect(h.fetches(of: 1).map(\.request.retry) == [0, 0, 1, 2, 3])
        #expect(h.scheduler.currentEntry(of: 1)?.content == [1])
        #expect(h.shown(1).map(\.content) == [nil, [1]])
    }

    @Test("\"it is not charged twice\": retries of a charged reload spend no budget")
    func retriesNotCharged() throws {
        let h = try Fixture.harness()
        try h.advance(minutes: 10)
        var failuresLeft = 3
        h.provider = { _, now in
            if failuresLeft > 0 { failuresLeft -= 1; return .failure }
            return .timeline(Timeline(entries: [TimelineEntry(date: now, content: [2])], policy: .never))
        }
        h.run { $0.reloadAllTimelines(app: Fixture.app) }
        try h.advance(minutes: 30)
        let calls = h.fetches(of: 1).dropFirst()
        #expect(calls.map(\.minute) == [10, 11, 13, 17])
        #expect(calls.map(\.request.charged) == [true, false, false, false])
        #expect(h.scheduler.reloadsUsed(by: 1) == 1)
        #expect(h.scheduler.currentEntry(of: 1)?.content == [2])
    }

    @Test("the backoff doubles up to its cap", arguments: [(1, 60.0), (2, 120), (3, 240), (7, 3600), (30, 3600)])
    func backoffCurve(failures: Int, wait: TimeInterval) {
        #expect(TimelineSettings.defaults.backoff(afterFailures: failures) == wait)
    }

    @Test("a call unanswered past the provider timeout is cancelled and retried; its late answer is ignored")
    func timeout() throws {
        let h = try Fixture.harness()
        h.provider = { _, _ in .silence }
        try h.advance(minutes: 1)
        let first = try #require(h.unanswered.first)
        #expect(h.effects { $0 == .cancelFetch(first.id) }.count == 1)  // at 30 s
        #expect(h.effects { if case .retryScheduled(1, _, 1) = $0 { true } else { false } }.count == 1)
        h.answer(first, with: .timeline(Timeline(entries: [TimelineEntry(date: h.clock.now, content: [9])])))
        #expect(h.scheduler.currentEntry(of: 1) == nil)
        try h.advance(minutes: 1)
        #expect(h.fetches(of: 1).map { $0.minute * 60 } == [0, 90])  // retry at 30 s + 60 s
    }

    @Test("by default a provider has 30 s (UNCONFIRMED: not published), then the retry waits 60 s")
    func defaultTimeout() throws {
        let h = try Fixture.harness()
        h.provider = { _, _ in .silence }
        try h.advance(minutes: 0.49)
        #expect(h.effects { if case .retryScheduled = $0 { true } else { false } }.isEmpty)
        try h.advance(minutes: 0.01)
        #expect(
            h.effects {
                if case .retryScheduled(1, let at, 1) = $0 { at == h.start.addingTimeInterval(90) } else { false }
            }.count == 1)
    }

    @Test("the provider timeout is a setting")
    func timeoutSetting() throws {
        var settings = TimelineSettings.defaults
        settings.providerTimeout = 5
        let h = try Fixture.harness(settings: settings)
        h.provider = { _, _ in .silence }
        try h.advance(minutes: 0.5)
        #expect(
            h.effects {
                if case .retryScheduled(1, let at, 1) = $0 { at == h.start.addingTimeInterval(65) } else { false }
            }.count == 1)
    }

    @Test("an explicit request during backoff goes out when allowed, and the retry rides on it")
    func requestDuringBackoff() throws {
        let h = try Fixture.harness()
        try h.advance(minutes: 10)
        h.provider = { _, _ in .failure }
        try h.run { try $0.reload(1, reason: .intentPerformed) }
        try h.settle()
        h.provider = { _, now in .timeline(Timeline(entries: [TimelineEntry(date: now)], policy: .never)) }
        try h.run { try $0.reload(1, reason: .intentPerformed) }
        try h.advance(minutes: 10)
        #expect(h.fetchMinutes(of: 1) == [0, 10, 10])
        #expect(h.fetches(of: 1).map(\.request.retry) == [0, 0, 0])
    }
}
