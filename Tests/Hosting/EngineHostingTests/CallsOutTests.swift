import EngineHosting
import EngineHostToys
import Foundation
import GlimpseVocabulary
import Synchronization
import Testing

/// `callOut`: one app's slow endpoint never holds up another's work. Each fired timer stands
/// for a call to the app its label names; the call's answer comes back as `.add(amount)`.
@Suite struct CallsOutTests {
    /// A call that answers only when the test opens its gate.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
        func wait() async {
            await withCheckedContinuation { continuation in
                let resume = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resume { continuation.resume() }
            }
        }
        func open() {
            for waiter in state.withLock({ state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }) { waiter.resume() }
        }
        var isOpen: Bool { state.withLock { $0.open } }
    }

    /// What the calls answered, in the order the host took the answers.
    final class Taken: Sendable {
        private let state = Mutex<(labels: [String], waiters: [(String, CheckedContinuation<Void, Never>)])>(([], []))
        var labels: [String] { state.withLock { $0.labels } }
        func take(_ labels: [String]) {
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.labels += labels
                let ready = state.waiters.filter { state.labels.contains($0.0) }.map(\.1)
                state.waiters.removeAll { state.labels.contains($0.0) }
                return ready
            }
            for waiter in ready { waiter.resume() }
        }
        /// Returns once `label`'s answer was taken.
        func awaitTaken(_ label: String) async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.labels.contains(label) { return true }
                    state.waiters.append((label, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// A counter host whose fired timers call out, lane = the label's first letter; `gates`
    /// holds a label's call until opened.
    func host(
        _ mode: HostClock.Mode, gates: [String: Gate], taken: Taken, answered: Taken = Taken()
    ) throws -> CounterHost {
        let clock = HostClock(mode)
        return try CounterHost(
            engine: Counter(clock: clock), clock: clock, journal: try Journal.inMemory(),
            apply: CounterCommand.apply,
            perform: { host, effects in
                let labels = effects.compactMap { effect -> String? in
                    if case .fired(let label, _, _) = effect { return label }
                    return nil
                }
                await host.callOut(labels) {
                    String($0.prefix(1))
                } call: { label in
                    await gates[label]?.wait()
                    answered.take([label])
                    return label
                } take: { answers in
                    for _ in answers { _ = try? await host.submit(.add(1)) }
                    taken.take(answers)
                }
            })
    }

    @Test(.timeLimit(.minutes(1))) func onASystemClockASlowAppHoldsUpNeitherTheTimerNorAnotherApp() async throws {
        let slow = Gate()
        let taken = Taken()
        let host = try host(.system, gates: ["a-slow": slow], taken: taken)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await host.run() }
            try await host.submit(.schedule(label: "a-slow", after: 0, amount: 0, every: 0, times: 1))
            // Due after the slow call went out: the timer must still fire it, and its call
            // (another app) must be answered and taken while the slow one is held.
            try await host.submit(.schedule(label: "b-fast", after: 0.05, amount: 0, every: 0, times: 1))
            await taken.awaitTaken("b-fast")
            #expect(!slow.isOpen)
            #expect(taken.labels == ["b-fast"])
            slow.open()
            await taken.awaitTaken("a-slow")
            group.cancelAll()
        }
        #expect(taken.labels == ["b-fast", "a-slow"])
        #expect(await host.read(\.count) == 2)
    }

    @Test(.timeLimit(.minutes(1))) func onAManualClockAnswersAreTakenInTheOrderAskedAndAdvanceWaitsForThem()
        async throws
    {
        let slow = Gate()
        let taken = Taken()
        let answered = Taken()
        let host = try host(.manual(start: start), gates: ["a-slow": slow], taken: taken, answered: answered)
        try await host.submit(.schedule(label: "a-slow", after: 10, amount: 0, every: 0, times: 1))
        try await host.submit(.schedule(label: "b-fast", after: 10, amount: 0, every: 0, times: 1))
        // Both calls go out at one instant; b answers first but is taken after a.
        async let advanced: Void = host.advance(to: start.addingTimeInterval(60))
        await answered.awaitTaken("b-fast")
        #expect(taken.labels.isEmpty)
        #expect(await host.read(\.count) == 0)
        slow.open()
        try await advanced
        #expect(taken.labels == ["a-slow", "b-fast"])
        #expect(await host.read(\.count) == 2)
    }
}
