import NIOCore
import NIOPosix
import RPCCore
import RPCTestService
import Synchronization
import Testing

@testable import RPCNIO

@Suite("Calls started on the event loop")
struct LoopCallStarterTests {
    /// Where a handler ran: on an event loop's thread or not.
    static var onEventLoop: Bool { MultiThreadedEventLoopGroup.currentEventLoop != nil }

    /// A unary method answering where its handler ran: one byte (1: on an event loop) before,
    /// and with `x-suspend` a second one after a sleep.
    struct WhereService: RPCService {
        static let method = MethodDescriptor(service: "glimpse.test.Where", method: "Unary")

        func registerMethods(with router: inout RPCRouter) {
            let raw = RawBytesCoder()
            router.registerUnary(Self.method, deserializer: raw, serializer: raw) { request, _ in
                var reply: [UInt8] = [LoopCallStarterTests.onEventLoop ? 1 : 0]
                if !request.metadata["x-suspend"].isEmpty {
                    try await Task.sleep(for: .milliseconds(1))
                    reply.append(LoopCallStarterTests.onEventLoop ? 1 : 0)
                }
                return ServerResponse(message: reply)
            }
        }
    }

    static func call(_ client: GRPCClient, suspending: Bool = false) async throws -> [UInt8] {
        var metadata = Metadata()
        if suspending { metadata.addString("1", forKey: "x-suspend") }
        return try await client.unary(
            request: ClientRequest(message: [0], metadata: metadata), method: WhereService.method,
            serializer: RawBytesCoder(), deserializer: RawBytesCoder(), options: CallOptions()
        ).message
    }

    @Test(
        "a unary handler that does not suspend runs on the loop that read its request; calls that suspend are answered too"
    )
    func unaryOnTheLoop() async throws {
        // A limit no pass reaches, however busy the machine: no call is sent off the loop.
        var config = NIOServerConfig.defaults
        config.eventLoopCallLimit = .seconds(3600)
        try await Loopback.run(services: [WhereService()], serverConfig: config) { loopback in
            for _ in 0..<20 {
                let reply = try await Self.call(loopback.client)
                #expect(reply == [1])
            }
            // A call that suspends starts on the loop too. Where it goes on is not asserted:
            // a sleep already over when its task would suspend does not suspend, and goes on
            // where it is.
            let suspended = try await Self.call(loopback.client, suspending: true)
            #expect(suspended.count == 2 && suspended.first == 1)
            // Many at once: each answered, none lost between the loop and the executor. Which
            // thread ran each is not asserted: a task resumed off the loop takes the calls
            // left in its batch (`CallBatch`), wherever it runs.
            let replies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for i in 0..<200 { group.addTask { try await Self.call(loopback.client, suspending: i % 3 == 0) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.count == 200)
            #expect(replies.filter { $0.count == 2 }.count == 67)
        }
    }

    @Test("with no eventLoopCallLimit every call starts off the loops")
    func offTheLoopsWhenAsked() async throws {
        var config = NIOServerConfig.defaults
        config.eventLoopCallLimit = nil
        try await Loopback.run(services: [WhereService()], serverConfig: config) { loopback in
            for _ in 0..<20 {
                let reply = try await Self.call(loopback.client)
                #expect(reply == [0])
            }
        }
    }

    /// Runs `starter.start` on a loop of `group`, as a connection's read burst would.
    static func start(_ count: Int, _ starter: LoopCallStarter, on group: any EventLoopGroup) async throws -> Bool {
        try await group.next().submit {
            var streams = CallDispatcherTests.streams(count)
            defer { precondition(streams.isEmpty, "every stream was started or queued") }
            return starter.start(&streams)
        }.get()
    }

    @Test("a pass that takes longer than the limit sends the rest of its calls, and the next ones, to the queue")
    func slowPassBacksOff() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let queue = InboundQueue<ServerStream>()
        let running = CallCount()
        let ran = CallDispatcherTests.Record<String>()
        let starter = LoopCallStarter(queue: queue, running: running, executor: nil) { stream in
            if stream.head.path == "/s/m0" {
                // Far longer than the limit on any machine: the spin's length is its own.
                let clock = ContinuousClock()
                let end = clock.now.advanced(by: CallDispatcher.inlineLimit * 10)
                while clock.now < end {}
            }
            ran.add(stream.head.path)
        }
        func queued() -> Int {
            var streams: [ServerStream] = []
            queue.pollAll(into: &streams)
            return streams.count
        }

        // The first batch runs on the loop; the slow call in it sends the next batch to the queue.
        #expect(try await Self.start(CallBatch.maximumCount + 4, starter, on: group))
        #expect(ran.all.count == CallBatch.maximumCount)
        #expect(queued() == 4)
        // Backing off: the next `backoffCalls` calls are queued, not run here.
        #expect(try await Self.start(CallDispatcher.backoffCalls, starter, on: group) == false)
        #expect(queued() == CallDispatcher.backoffCalls)
        #expect(ran.all.count == CallBatch.maximumCount)
        await running.waitForZero()
        try await group.shutdownGracefully()
    }

    @Test("after the backoff's calls were queued, the same starter runs calls on the loop again")
    func backoffEnds() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let queue = InboundQueue<ServerStream>()
        let running = CallCount()
        let slow = Atomic<Bool>(true)
        let ran = Atomic<Int>(0)
        let starter = LoopCallStarter(queue: queue, running: running, executor: nil) { _ in
            if slow.exchange(false, ordering: .relaxed) {
                let clock = ContinuousClock()
                let end = clock.now.advanced(by: CallDispatcher.inlineLimit * 10)
                while clock.now < end {}
            }
            ran.add(1, ordering: .relaxed)
        }
        #expect(try await Self.start(1, starter, on: group))
        #expect(try await Self.start(CallDispatcher.backoffCalls, starter, on: group) == false)
        #expect(ran.load(ordering: .relaxed) == 1)
        #expect(try await Self.start(2, starter, on: group))
        #expect(ran.load(ordering: .relaxed) == 3)
        await running.waitForZero()
        try await group.shutdownGracefully()
    }
}
