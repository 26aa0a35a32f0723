import RPCCore
import Synchronization
import Testing

@testable import RPCNIO

@Suite("Call dispatcher")
struct CallDispatcherTests {
    /// What the calls saw, from whichever threads ran them.
    final class Record<Entry: Sendable>: Sendable {
        let entries = Mutex<[Entry]>([])
        func add(_ entry: Entry) { entries.withLock { $0.append(entry) } }
        var all: [Entry] { entries.withLock { $0 } }
    }

    static func streams(_ count: Int) -> [ServerStream] {
        (0..<count).map { ServerStream(head: RequestHead(path: "/s/m\($0)"), deadline: nil, remotePeer: "test") }
    }

    @Test("a batch gives each call to exactly one of its concurrent takers, and lets it go when taken")
    func batchTakesEachOnce() async {
        let streams = Self.streams(1000)
        weak let first = streams[0]
        let batch = CallBatch(streams, 0..<1000)
        let all = await withTaskGroup(of: [ObjectIdentifier].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var mine: [ObjectIdentifier] = []
                    while let stream = batch.take() { mine.append(ObjectIdentifier(stream)) }
                    return mine
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(all.count == 1000)
        #expect(Set(all) == Set(streams.map(ObjectIdentifier.init)))
        #expect(batch.isExhausted)
        #expect(batch.take() == nil)
        _ = consume streams
        #expect(first == nil, "a taken stream is not kept by the batch")
    }

    @Test("a range of the waiting calls makes a batch; the rest stay out of it")
    func batchOfRange() {
        let streams = Self.streams(5)
        let batch = CallBatch(streams, 1..<3)
        #expect(batch.take() === streams[1])
        #expect(batch.take() === streams[2])
        #expect(batch.take() == nil)
    }

    struct Seen: Sendable {
        var path: String
        var cancelled: Bool
    }

    @Test("calls of one batch run in order, and a cancelled call does not cancel the calls after it")
    func cancellationStaysWithItsCall() async {
        let streams = Self.streams(4)
        let seen = Record<Seen>()
        var dispatcher = CallDispatcher()
        let running = dispatcher.running
        do {
            dispatcher.start(CallBatch(streams, 0..<4)) { stream in
                // The second call is cancelled while it runs, as `abandon` would do; no call
                // suspends, so without care its task would go on to the next ones.
                if stream.head.path == "/s/m1" { withUnsafeCurrentTask { $0?.cancel() } }
                seen.add(Seen(path: stream.head.path, cancelled: Task.isCancelled))
            }
        }
        await running.waitForZero()
        let calls = seen.all
        #expect(Set(calls.map(\.path)) == ["/s/m0", "/s/m1", "/s/m2", "/s/m3"])
        #expect(calls.filter(\.cancelled).map(\.path) == ["/s/m1"])
    }

    @Test("when a call suspends, the calls after it go on in another task; all of them finish")
    func suspendedCallHandsOver() async {
        let streams = Self.streams(6)
        let order = Record<String>()
        var dispatcher = CallDispatcher()
        do {
            dispatcher.start(CallBatch(streams, 0..<6)) { stream in
                order.add("start " + stream.head.path)
                if stream.head.path == "/s/m0" { try? await Task.sleep(for: .milliseconds(20)) }
                order.add("end " + stream.head.path)
            }
            // The first call is asleep; the others did not wait for it.
            #expect(order.all.contains("end /s/m5"))
            #expect(!order.all.contains("end /s/m0"))
        }
        await dispatcher.running.waitForZero()
        #expect(order.all.filter { $0.hasPrefix("end") }.count == 6)
    }

    @Test("calls that finish without suspending all run inside the start, on the dispatching task's thread")
    func shortCallsRunInline() async {
        let streams = Self.streams(CallBatch.maximumCount)
        let ran = Record<Int>()
        var dispatcher = CallDispatcher()
        do {
            dispatcher.start(CallBatch(streams, 0..<streams.count)) { _ in
                ran.add(1)
            }
            #expect(ran.all.count == streams.count, "every call ran before start returned")
        }
        await dispatcher.running.waitForZero()
    }

    @Test("after a batch that ran long, the next calls start as tasks of their own, counted until they end")
    func aLongBatchSendsTheNextCallsToTasksOfTheirOwn() async {
        var dispatcher = CallDispatcher()
        // Computes past the inline limit: the dispatcher backs off.
        dispatcher.start(CallBatch(Self.streams(1), 0..<1)) { _ in
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: CallDispatcher.inlineLimit * 10)
            while clock.now < end {}
        }
        let ended = Record<String>()
        let streams = Self.streams(3)
        dispatcher.start(CallBatch(streams, 0..<3)) { stream in
            await Task.yield()
            ended.add(stream.head.path)
        }
        // No task group holds them: the count is what `listen` waits for.
        await dispatcher.running.waitForZero()
        #expect(Set(ended.all) == ["/s/m0", "/s/m1", "/s/m2"])
    }
}
