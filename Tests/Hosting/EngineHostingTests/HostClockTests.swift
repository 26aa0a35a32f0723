import EngineHosting
import EngineHostToys
import Foundation
import GlimpseVocabulary
import Synchronization
import Testing

@Suite struct HostClockTests {
    @Test func aManualClockIsFrozenUntilTheHostAdvancesIt() async throws {
        let host = try openCounterHost(try Journal.inMemory())
        #expect(host.clock.isManual)
        #expect(host.clock.now == start)
        #expect(host.clock.now == start)
        try await host.advance(to: start.addingTimeInterval(3600))
        #expect(host.clock.now == start.addingTimeInterval(3600))
    }

    @Test func aSystemClockNeverGoesBackEvenWhenItsSourceDoes() {
        let readings = [start.addingTimeInterval(10), start]
        let index = ReadingIndex()
        let clock = HostClock(.system, system: SystemClock(source: { readings[index.next() % 2] }))
        #expect(clock.now == start.addingTimeInterval(10))
        #expect(clock.now == start.addingTimeInterval(10))
    }

    @Test func aClosedHostRefusesInputs() async throws {
        let host = try openCounterHost(try Journal.inMemory())
        try await host.submit(.add(1))
        try await host.close()
        await #expect(throws: EngineHostError.closed) { try await host.submit(.add(1)) }
        await #expect(throws: EngineHostError.closed) { try await host.advance(to: start.addingTimeInterval(1)) }
    }
}

/// A thread-safe counter for a clock source's readings.
final class ReadingIndex: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
