import RPCCore
import Synchronization
import Testing

/// Records the bytes an InboundQueue reports as taken late.
final class TakenBytes: InboundFlowObserver {
    let total = Atomic<Int>(0)
    func owedBytesTaken(_ bytes: Int) { total.add(bytes, ordering: .relaxed) }
    var value: Int { total.load(ordering: .relaxed) }
}

/// A flag set from another task.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

@Suite("Inbound queue")
struct InboundQueueTests {
    @Test func deliversInOrderThenEnds() async throws {
        let queue = InboundQueue<Int>()
        queue.push(1)
        queue.push(2)
        queue.finish()
        #expect(try await queue.next() == 1)
        #expect(try await queue.next() == 2)
        #expect(try await queue.next() == nil)
    }

    @Test func deliversQueuedElementsBeforeTheError() async throws {
        let queue = InboundQueue<Int>()
        queue.push(1)
        queue.fail(RPCError(code: .cancelled))
        #expect(try await queue.next() == 1)
        await #expect(throws: RPCError(code: .cancelled)) { try await queue.next() }
    }

    @Test func releasesBytesWithinTheAllowanceAndOwesTheRest() async throws {
        let taken = TakenBytes()
        let queue = InboundQueue<Int>(eagerAllowance: 100, observer: taken)
        #expect(queue.push(1, bytes: 60))
        #expect(queue.push(2, bytes: 40))
        #expect(!queue.push(3, bytes: 50), "over the allowance: owed until taken")
        _ = try await queue.next()
        _ = try await queue.next()
        #expect(taken.value == 0)
        _ = try await queue.next()
        #expect(taken.value == 50)
    }

    @Test func wakesAWaitingConsumer() async throws {
        let queue = InboundQueue<Int>()
        async let next = queue.next()
        try await Task.sleep(for: .milliseconds(10))
        queue.push(7)
        #expect(try await next == 7)
    }

    @Test func deferredWakeWaitsForWakeConsumer() async throws {
        let queue = InboundQueue<Int>()
        let consumer = Task { try await queue.next() }
        try await Task.sleep(for: .milliseconds(10))
        queue.push(1, deferWake: true)
        queue.wakeConsumer()
        #expect(try await consumer.value == 1)
    }

    @Test func cancellingTheConsumerEndsTheWait() async {
        let queue = InboundQueue<Int>()
        let consumer = Task { try await queue.next() }
        consumer.cancel()
        await #expect(throws: RPCError.self) { try await consumer.value }
    }

    @Test func takesASingleElementOfAnEndedStreamWithoutWaiting() {
        let queue = InboundQueue<Int>()
        queue.push(5)
        guard case .incomplete = queue.takeSingleIfComplete() else { Issue.record("not incomplete"); return }
        queue.finish()
        guard case .one(5) = queue.takeSingleIfComplete() else { Issue.record("no single element"); return }
    }
}

@Suite("Outbound gate")
struct OutboundGateTests {
    @Test func writerPassesUnderTheHighWatermark() async throws {
        let gate = OutboundGate(highWatermark: 100, lowWatermark: 10)
        try await gate.add(100)
    }

    @Test func writerWaitsUntilReleasedToTheLowWatermark() async throws {
        let gate = OutboundGate(highWatermark: 100, lowWatermark: 10)
        let passed = Flag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await gate.add(150)
                passed.set()
            }
            try await Task.sleep(for: .milliseconds(20))
            gate.release(100)
            try await Task.sleep(for: .milliseconds(20))
            let early = passed.isSet
            #expect(!early, "50 pending is still above the low watermark")
            gate.release(40)
            try await group.waitForAll()
        }
        let late = passed.isSet
        #expect(late)
    }

    @Test func closingFailsTheWaitingWriter() async {
        let gate = OutboundGate(highWatermark: 10, lowWatermark: 0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await #expect(throws: RPCError(code: .cancelled, message: "gone")) { try await gate.add(100) }
            }
            try? await Task.sleep(for: .milliseconds(10))
            gate.close(RPCError(code: .cancelled, message: "gone"))
        }
        await #expect(throws: RPCError.self) { try await gate.add(1) }
    }
}

@Suite("Cancellation slot")
struct CancellationSlotTests {
    @Test func cancelsTheRunningTask() async {
        let slot = CancellationSlot()
        let sawCancellation = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await slot.run {
                    while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
                    return true
                }
            }
            try? await Task.sleep(for: .milliseconds(10))
            slot.cancel()
            return await group.next() ?? false
        }
        #expect(sawCancellation)
    }

    @Test func aCancelBeforeTheStartCancelsAtTheStart() async {
        let slot = CancellationSlot()
        slot.cancel()
        let cancelled = await slot.run { Task.isCancelled }
        #expect(cancelled)
    }
}
