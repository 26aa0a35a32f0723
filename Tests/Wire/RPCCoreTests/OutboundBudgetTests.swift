import RPCCore
import Synchronization
import Testing

/// The connection's budget for queued response bytes: writers take room before queueing,
/// wait in order while there is none, and fail once the connection is gone.
@Suite("Outbound budget")
struct OutboundBudgetTests {
    @Test("room is taken without waiting while it fits; a message alone may exceed the limit")
    func fits() async throws {
        let budget = OutboundBudget(limit: 100)
        try await budget.take(60)
        try await budget.take(40)
        #expect(budget.used == 100)
        budget.give(100)
        try await budget.take(500)  // alone in an empty budget
        #expect(budget.used == 500)
    }

    final class Arrivals: Sendable {
        let names = Mutex<[String]>([])
        func note(_ name: String) { names.withLock { $0.append(name) } }
    }

    @Test("writers wait when there is no room and are let in, in the order they came, as room comes back")
    func waitsInOrder() async throws {
        let budget = OutboundBudget(limit: 100)
        try await budget.take(100)
        let arrivals = Arrivals()
        let big = Task {
            try await budget.take(80)
            arrivals.note("big")
        }
        while budget.waitingCount < 1 { await Task.yield() }
        let small = Task {
            try await budget.take(10)
            arrivals.note("small")
        }
        while budget.waitingCount < 2 { await Task.yield() }
        budget.give(30)  // room for the small one, not the big one: the small one waits its turn
        #expect(budget.waitingCount == 2)
        budget.give(70)
        try await big.value
        try await small.value
        #expect(arrivals.names.withLock { $0 } == ["big", "small"])
        #expect(budget.used == 90)
    }

    @Test("a waiting writer fails when its task is cancelled or the connection closes, and so does a later one")
    func cancelledAndClosed() async throws {
        let budget = OutboundBudget(limit: 10)
        try await budget.take(10)
        let cancelled = Task { try await budget.take(5) }
        while budget.waitingCount < 1 { await Task.yield() }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(budget.waitingCount == 0)
        let waiting = Task { try await budget.take(5) }
        while budget.waitingCount < 1 { await Task.yield() }
        budget.close(RPCError(code: .cancelled, message: "gone"))
        await #expect(throws: RPCError.self) { try await waiting.value }
        await #expect(throws: RPCError.self) { try await budget.take(1) }
    }
}
