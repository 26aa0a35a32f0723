import Foundation
import Testing
import GlimpseVocabulary

@Suite("VirtualClock")
struct VirtualClockTests {
    @Test("advancing fires every deadline in time order, including work scheduled on the way")
    func firesInOrder() throws {
        let clock = VirtualClock()
        let start = clock.now
        var due: [Date] = [start + 60, start + 10, start + 30]
        var fired: [TimeInterval] = []
        try clock.advance(
            to: start + 100,
            nextDeadline: { due.min() },
            fire: { at in
                due.removeAll { $0 <= at }
                fired.append(at.timeIntervalSince(start))
                #expect(clock.now == at)
                if fired.count == 1 { due.append(start + 20) }  // scheduled while firing
            })
        #expect(fired == [10, 20, 30, 60])
        #expect(clock.now == start + 100)
    }

    @Test("time never goes backwards")
    func refusesBackwards() throws {
        let clock = VirtualClock()
        try clock.advance(by: 5)
        #expect(throws: VirtualClock.AdvanceError.self) { try clock.advance(by: -1) }
    }
}
