import EngineHosting
import Synchronization
import Testing

@Suite struct InOrderBatchesTests {
    /// Answers arrive in reverse order; they must be taken in the items' order, each once.
    @Test func answersAreTakenInTheItemsOrderWhateverOrderTheyArriveIn() async {
        let items = Array(0..<40)
        let gate = ArrivalGate(waitingFor: items.count - 1)
        var taken: [[Int]] = []
        await inOrderBatches(items) { item in
            // Item 0 answers only after every other item has answered.
            if item == 0 { await gate.wait() } else { gate.arrive() }
            return item * 10
        } take: { batch in
            taken.append(batch)
        }
        #expect(taken.flatMap { $0 } == items.map { $0 * 10 })
        #expect(taken.first?.first == 0)
    }

    @Test func noItemsTakesNothing() async {
        var takes = 0
        await inOrderBatches([Int]()) {
            $0
        } take: { _ in
            takes += 1
        }
        #expect(takes == 0)
    }
}

/// Lets one call wait until `count` others have arrived.
final class ArrivalGate: Sendable {
    private let state: Mutex<(count: Int, waiter: CheckedContinuation<Void, Never>?)>

    init(waitingFor count: Int) { state = Mutex((count, nil)) }

    func arrive() {
        let resume = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count -= 1
            guard state.count == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        resume?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.count <= 0 { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
