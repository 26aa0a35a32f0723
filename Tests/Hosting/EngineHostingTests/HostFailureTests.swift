import EngineHosting
import EngineHostToys
import Foundation
import Testing

/// A journal that cannot take a write fails the host for good, and says so to whoever waits.
@Suite struct HostFailureTests {
    @Test("a write the journal refuses: the input fails, the host refuses the next, `failed` reports it once")
    func aJournalThatFailsFailsTheHost() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try Journal(directory: directory, name: "counter")
        let host = try openCounterHost(journal)
        #expect(try await host.submit(.add(2)) == 2)
        #expect(host.failed.error == nil)

        let waiting = Task { await host.failed.wait() }
        try journal.close()  // every write from now on fails
        await #expect(throws: EngineHostError.self) { try await host.submit(.add(1)) }
        guard case .journalFailed? = host.failed.error else {
            Issue.record("no journal failure recorded: \(String(describing: host.failed.error))")
            return
        }
        #expect(await waiting.value == host.failed.error)
        #expect(await host.failed.wait() == host.failed.error)  // a late waiter hears it at once
        await #expect(throws: EngineHostError.self) { try await host.submit(.add(1)) }
    }

    @Test("a cancelled wait returns nil, and a healthy host records nothing")
    func aCancelledWaitReturnsNil() async throws {
        let host = try openCounterHost(try Journal.inMemory())
        let waiting = Task { await host.failed.wait() }
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(try await host.submit(.add(1)) == 1)
        #expect(host.failed.error == nil)
    }
}
