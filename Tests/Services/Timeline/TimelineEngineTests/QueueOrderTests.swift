import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary

/// Work for many placements at once (a locale change, Low Power Mode) is queued in an
/// order that depends on nothing but the inputs, so a replay or a restored snapshot in
/// another process (another hash seed) gives each placement the same fetch id.
@Suite("Work for every placement is queued in a set order")
struct QueueOrderTests {
    /// The provider calls a locale change makes, in order, with `slotOf` stretched to
    /// `capacity` first: a dictionary's iteration order changes with its capacity as it
    /// does with the process's hash seed.
    static func callsAfterLocaleChange(capacity: Int, lowPower: Bool) throws -> [FetchRequest] {
        let h = try Fixture.harness(placements: 40)
        try h.settle()
        h.scheduler.slotOf.reserveCapacity(capacity)
        let before = h.log.count
        if lowPower { h.run { $0.setLowPowerMode(true) } }
        h.run { $0.systemChanged(.locale) }
        try h.advance(minutes: 1)
        return h.log.dropFirst(before).compactMap { entry in
            if case .fetchTimeline(let request) = entry.effect { request } else { nil }
        }
    }

    @Test(
        "a locale change calls the providers in the same order whatever the dictionary's layout",
        arguments: [false, true])
    func localeChange(lowPower: Bool) throws {
        let plain = try Self.callsAfterLocaleChange(capacity: 0, lowPower: lowPower)
        #expect(plain.count == 40)
        for capacity in [100, 1_000, 10_000] {
            let stretched = try Self.callsAfterLocaleChange(capacity: capacity, lowPower: lowPower)
            #expect(stretched.map(\.placement) == plain.map(\.placement))
            #expect(stretched.map(\.id) == plain.map(\.id))
        }
    }
}
