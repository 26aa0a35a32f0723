import Foundation
import Synchronization
import Testing
import GlimpseVocabulary

/// A time source the test moves by hand, backwards included.
final class SteppingSource: Sendable {
    let reading = Mutex(Date(timeIntervalSince1970: 1_767_225_600))
    func set(_ date: Date) { reading.withLock { $0 = date } }
    func step(by seconds: TimeInterval) { reading.withLock { $0 += seconds } }
    var date: Date { reading.withLock { $0 } }
}

@Suite("SystemClock")
struct SystemClockTests {
    @Test("when the system clock steps back, now holds at the latest instant until real time passes it")
    func neverGoesBackwards() {
        let source = SteppingSource()
        let clock = SystemClock(source: { source.date })
        let t0 = clock.now
        source.step(by: 10)
        #expect(clock.now == t0 + 10)
        source.step(by: -3600)  // NTP steps the system clock back an hour
        #expect(clock.now == t0 + 10)
        source.set(t0 + 11)
        #expect(clock.now == t0 + 11)  // forward steps are followed
    }

    @Test("the default source is the system's time")
    func systemTime() {
        let before = Date()
        let now = SystemClock().now
        #expect(now >= before && now <= Date())
    }
}
