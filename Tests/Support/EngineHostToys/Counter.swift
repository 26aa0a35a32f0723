package import Foundation
import EngineHosting
import Synchronization
package import GlimpseVocabulary

/// A toy engine for the host's tests: a counter with timers. A timer, when it fires, adds
/// its amount and may schedule its successor (work scheduled by fired work).
package struct Counter: Engine, Equatable {
    package struct Timer: Equatable, Sendable, Codable {
        package var due: Date
        package var label: String
        package var amount: Int
        /// Seconds after firing at which the next link is due, and how many links remain.
        package var every: TimeInterval
        package var remaining: Int
    }

    package enum Effect: Equatable, Sendable {
        case counted(Int, at: Date)
        case fired(String, count: Int, at: Date)
    }

    package let clock: any WallClock
    package private(set) var count = 0
    package private(set) var timers: [Timer] = []
    /// When each input was applied: replay must see the same instants.
    package private(set) var seen: [Date] = []

    package init(clock: any WallClock) {
        self.clock = clock
    }

    package static func == (lhs: Counter, rhs: Counter) -> Bool {
        lhs.count == rhs.count && lhs.timers == rhs.timers && lhs.seen == rhs.seen
    }

    package struct Refused: Error, Equatable {
        package init() {}
    }

    package mutating func add(_ amount: Int) throws -> Step<Int, Effect> {
        guard amount >= 0 else { throw Refused() }
        count += amount
        seen.append(clock.now)
        return Step(count, effects: [.counted(count, at: clock.now)])
    }

    package mutating func schedule(
        _ label: String, after delay: TimeInterval, amount: Int, every: TimeInterval, times: Int
    ) {
        seen.append(clock.now)
        insert(
            Timer(
                due: clock.now.addingTimeInterval(delay), label: label, amount: amount, every: every,
                remaining: times - 1))
    }

    private mutating func insert(_ timer: Timer) {
        // Stable: equal deadlines fire in the order they were scheduled.
        let index = timers.firstIndex { $0.due > timer.due } ?? timers.endIndex
        timers.insert(timer, at: index)
    }

    package mutating func nextDeadline() -> Date? { timers.first?.due }

    package mutating func fireDue() -> [Effect] {
        let now = clock.now
        seen.append(now)
        var effects: [Effect] = []
        while let first = timers.first, first.due <= now {
            timers.removeFirst()
            count += first.amount
            effects.append(.fired(first.label, count: count, at: now))
            if first.remaining > 0 {
                var next = first
                next.due = first.due.addingTimeInterval(first.every)
                next.remaining -= 1
                insert(next)
            }
        }
        return effects
    }
}

/// The counter's state is everything but its clock.
extension Counter: SnapshotState, SnapshotFields {
    package static var snapshotFormat: Int { 1 }

    package enum FieldKey: String, CodingKey, CaseIterable {
        case count, timers, seen
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visit(.count, &count)
        try fields.visit(.timers, &timers)
        try fields.visit(.seen, &seen)
    }

    package func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
    package mutating func restore(from decoder: any Decoder) throws { try restoreFields(from: decoder) }
}

/// The toy service's commands, journaled as JSON.
package enum CounterCommand: HostCommand, Codable, Equatable {
    package typealias Answer = Int

    case add(Int)
    case schedule(label: String, after: TimeInterval, amount: Int, every: TimeInterval, times: Int)

    package func encode() throws -> [UInt8] {
        // Sorted keys: the same command always journals as the same bytes.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return [UInt8](try encoder.encode(self))
    }

    package static func decode(_ bytes: [UInt8]) throws -> CounterCommand {
        try JSONDecoder().decode(CounterCommand.self, from: Data(bytes))
    }

    /// The toy service's mapping of commands onto engine calls.
    @Sendable
    package static func apply(_ counter: inout Counter, _ command: CounterCommand) throws -> Step<Int, Counter.Effect> {
        switch command {
        case .add(let amount):
            return try counter.add(amount)
        case .schedule(let label, let after, let amount, let every, let times):
            counter.schedule(label, after: after, amount: amount, every: every, times: times)
            return Step(counter.count)
        }
    }
}

/// What `perform` was handed, in order.
package final class EffectLog: Sendable {
    private let batches = Mutex<[[Counter.Effect]]>([])

    package init() {}

    package var all: [Counter.Effect] { batches.withLock { $0.flatMap { $0 } } }

    @Sendable
    package func perform(_ effects: [Counter.Effect]) async {
        batches.withLock { $0.append(effects) }
    }
}
