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

    @Test func pushContentsOfQueuesInOrderAndHandsTheFirstToAWaitingConsumer() async throws {
        let queue = InboundQueue<Int>()
        let consumer = Task { try await queue.next() }
        try await Task.sleep(for: .milliseconds(10))
        var burst = [1, 2, 3]
        queue.push(contentsOf: &burst)
        #expect(burst.isEmpty, "the burst is handed over")
        #expect(try await consumer.value == 1)
        var rest: [Int] = []
        queue.pollAll(into: &rest)
        #expect(rest == [2, 3])
        burst = [4]
        queue.finish()
        queue.push(contentsOf: &burst)
        #expect(try await queue.next() == nil, "pushes after the end are dropped")
    }

    @Test func cancellingTheConsumerEndsTheWait() async {
        let queue = InboundQueue<Int>()
        let consumer = Task { try await queue.next() }
        consumer.cancel()
        await #expect(throws: RPCError.self) { try await consumer.value }
    }

    @Test func pollAllTakesQueuedElementsWithoutWaitingAndLeavesTheEndToNext() async throws {
        let taken = TakenBytes()
        let queue = InboundQueue<Int>(eagerAllowance: 10, observer: taken)
        var elements: [Int] = []
        queue.pollAll(into: &elements)
        #expect(elements.isEmpty, "nothing queued")
        queue.push(1, bytes: 10)
        #expect(!queue.push(2, bytes: 30), "over the allowance: owed")
        queue.push(3, bytes: 5)
        queue.finish()
        elements = [0]
        queue.pollAll(into: &elements)
        #expect(elements == [0, 1, 2, 3], "appended in order")
        #expect(taken.value == 35, "owed elements taken by pollAll are reported like those taken by next")
        queue.pollAll(into: &elements)
        #expect(elements == [0, 1, 2, 3])
        #expect(try await queue.next() == nil, "the end is still delivered by next")
    }

    @Test func pollAllDoesNotSwallowAFailure() async {
        let queue = InboundQueue<Int>()
        queue.fail(RPCError(code: .cancelled))
        var elements: [Int] = []
        queue.pollAll(into: &elements)
        #expect(elements.isEmpty)
        await #expect(throws: RPCError(code: .cancelled)) { try await queue.next() }
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

/// A `ServerStream` as a transport would subclass it, recording what it is asked to do.
final class RecordingServerStream: ServerStream, @unchecked Sendable {
    struct Report: Equatable {
        var owed: Int
        var taken: Int
        var waiting: Bool
    }

    let reports = Mutex<[Report]>([])
    var owed: Int { reports.withLock { $0.reduce(0) { $0 + $1.owed } } }

    init(
        eagerAllowance: Int = 64 * 1024, highWatermark: Int = 256 * 1024, lowWatermark: Int = 64 * 1024,
        takenReportThreshold: Int = .max
    ) {
        super.init(
            head: RequestHead(path: "/s/m"), deadline: nil, remotePeer: "test",
            eagerAllowance: eagerAllowance, highWatermark: highWatermark, lowWatermark: lowWatermark,
            takenReportThreshold: takenReportThreshold)
    }

    override func requestBytesTaken(owed: Int, taken: Int, waiting: Bool) {
        reports.withLock { $0.append(Report(owed: owed, taken: taken, waiting: waiting)) }
    }
    override func send(_ part: RPCResponsePart, flush: Bool) {}
    override func write(_ part: RPCResponsePart, flush: Bool) async throws {}
}

@Suite("Server stream: requests, response credit and cancellation in one object")
struct ServerStreamTests {
    @Test func requestsArriveInOrderThenTheEnd() async throws {
        let stream = RecordingServerStream()
        stream.pushRequest([1], bytes: 6)
        stream.pushRequest([2], bytes: 6)
        stream.finishRequests()
        #expect(try await stream.nextRequest() == [1])
        #expect(try await stream.nextRequest() == [2])
        #expect(try await stream.nextRequest() == nil)
    }

    @Test func aSingleRequestIsTakenWithoutWaitingOnceComplete() {
        let stream = RecordingServerStream()
        stream.pushRequest([7], bytes: 6)
        guard case .incomplete = stream.takeSingleRequestIfComplete() else { Issue.record("not incomplete"); return }
        stream.finishRequests()
        guard case .one([7]) = stream.takeSingleRequestIfComplete() else { Issue.record("no single request"); return }
    }

    @Test func bytesOverTheAllowanceAreOwedUntilTaken() async throws {
        let stream = RecordingServerStream(eagerAllowance: 10)
        #expect(stream.pushRequest([1, 2, 3], bytes: 8) == .queued)
        #expect(stream.pushRequest([4, 5, 6], bytes: 8) == .owed)
        _ = try await stream.nextRequest()
        #expect(stream.owed == 0)
        _ = try await stream.nextRequest()
        #expect(stream.owed == 8)
    }

    @Test func aWaitingReaderGetsTheNextPush() async throws {
        let stream = RecordingServerStream()
        async let message = stream.nextRequest()
        while !stream.isWaitingForRequest() { try await Task.sleep(for: .milliseconds(1)) }
        #expect(stream.pushRequest([9], bytes: 6) == .taken)
        #expect(try await message == [9])
    }

    @Test func takenBytesAreReportedAtTheThresholdWithOwedBytesAndBeforeWaiting() async throws {
        let stream = RecordingServerStream(eagerAllowance: 100, takenReportThreshold: 20)
        for i in 0..<4 { stream.pushRequest([UInt8(i)], bytes: 8) }
        _ = try await stream.nextRequest()
        _ = try await stream.nextRequest()
        #expect(stream.reports.withLock { $0 }.isEmpty, "16 bytes taken: under the threshold")
        _ = try await stream.nextRequest()
        #expect(stream.reports.withLock { $0 } == [.init(owed: 0, taken: 24, waiting: false)])
        _ = try await stream.nextRequest()
        // The queue is empty: before waiting, the 8 bytes taken since go out.
        async let next = stream.nextRequest()
        while !stream.isWaitingForRequest() { try await Task.sleep(for: .milliseconds(1)) }
        #expect(stream.reports.withLock { $0.last } == .init(owed: 0, taken: 8, waiting: true))
        stream.finishRequests()
        #expect(try await next == nil)
    }

    @Test func aTransportThatAskedHearsWhenTheHandlerStartsWaiting() async throws {
        let stream = RecordingServerStream()
        #expect(!stream.isWaitingForRequest())  // and asks to hear it
        async let next = stream.nextRequest()
        while stream.reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(stream.reports.withLock { $0 } == [.init(owed: 0, taken: 0, waiting: true)])
        #expect(stream.pushRequest([5], bytes: 6) == .taken)
        #expect(try await next == [5])
    }

    @Test func withoutAThresholdOnlyOwedBytesAreReported() async throws {
        let stream = RecordingServerStream(eagerAllowance: 10)
        stream.pushRequest([1], bytes: 6)
        stream.pushRequest([2], bytes: 6)
        _ = try await stream.nextRequest()
        _ = try await stream.nextRequest()
        stream.finishRequests()
        #expect(try await stream.nextRequest() == nil)
        #expect(stream.reports.withLock { $0 } == [.init(owed: 6, taken: 0, waiting: false)])
    }

    @Test func abandonFailsTheReaderAfterQueuedRequests() async throws {
        let stream = RecordingServerStream()
        stream.pushRequest([1], bytes: 6)
        stream.abandon(RPCError(code: .cancelled, message: "reset"))
        #expect(try await stream.nextRequest() == [1])
        await #expect(throws: RPCError.self) { try await stream.nextRequest() }
        #expect(stream.pushRequest([2], bytes: 6) == .taken)  // dropped after the end
        #expect(stream.abandonment?.code == .cancelled)
    }

    @Test func aWriterOverTheHighWatermarkWaitsForTheLowOne() async throws {
        let stream = RecordingServerStream(highWatermark: 100, lowWatermark: 10)
        try await stream.reserveOutbound(100)  // at the mark: no wait
        let resumed = Flag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await stream.reserveOutbound(50)
                resumed.set()
            }
            try await Task.sleep(for: .milliseconds(20))
            #expect(!resumed.isSet)
            stream.releaseOutbound(100)
            #expect(!resumed.isSet)  // 50 pending, still over 10
            stream.releaseOutbound(40)
            try await group.waitForAll()
        }
        #expect(resumed.isSet)
    }

    @Test func abandonFailsAWaitingWriterAndLaterOnes() async throws {
        let stream = RecordingServerStream(highWatermark: 10, lowWatermark: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await #expect(throws: RPCError.self) { try await stream.reserveOutbound(20) }
            }
            try await Task.sleep(for: .milliseconds(10))
            stream.abandon(RPCError(code: .deadlineExceeded, message: "late"))
            try await group.waitForAll()
        }
        await #expect(throws: RPCError.self) { try await stream.reserveOutbound(1) }
    }

    @Test func abandonCancelsTheRunningTask() async {
        let stream = RecordingServerStream()
        let sawCancellation = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await stream.runCancellable {
                    while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
                    return true
                }
            }
            try? await Task.sleep(for: .milliseconds(10))
            stream.abandon(RPCError(code: .cancelled, message: "reset"))
            return await group.next() ?? false
        }
        #expect(sawCancellation)
    }

    @Test func anAbandonBeforeTheStartCancelsAtTheStart() async {
        let stream = RecordingServerStream()
        stream.abandon(RPCError(code: .cancelled, message: "reset"))
        let cancelled = await stream.runCancellable { Task.isCancelled }
        #expect(cancelled)
    }

    @Test func anAbandonAfterTheEndCancelsNothing() async {
        let stream = RecordingServerStream()
        let cancelled = await stream.runCancellable { Task.isCancelled }
        stream.abandon(RPCError(code: .cancelled, message: "late reset"))
        #expect(!cancelled)
    }
}
