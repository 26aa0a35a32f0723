import EngineHosting
import EngineHostToys
import Foundation
import GlimpseVocabulary
import Testing

@Suite struct SystemTimerTests {
    @Test func theTimerFiresADeadlineWithoutAnyoneCallingIn() async throws {
        let journal = try Journal.inMemory()
        let log = EffectLog()
        let host = try openCounterHost(journal, mode: .system, log: log)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await host.run() }
            // Scheduled after the timer is already sleeping with no deadline: the submit re-arms it.
            try await Task.sleep(for: .milliseconds(50))
            try await host.submit(.schedule(label: "soon", after: 0.3, amount: 7, every: 0, times: 1))
            // Wait (bounded) for the firing to show up; no duration is asserted.
            for _ in 0..<100 where log.all.count < 1 {
                try await Task.sleep(for: .milliseconds(50))
            }
            group.cancelAll()
        }
        #expect(log.all.count == 1)
        guard case .fired("soon", count: 7, let at)? = log.all.first else {
            Issue.record("expected the timer to fire, got \(log.all)")
            return
        }
        let entries = try journal.entries()
        #expect(entries.map(\.kind) == [.command, .fireDue])
        #expect(entries.last?.instant == at)
        #expect(await host.nextDue() == nil)
    }
}
