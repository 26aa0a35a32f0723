import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import RPCTestService
import Synchronization
import Testing

@Suite("Loopback: deadlines, cancellation, backpressure, restarts, shutdown")
struct LoopbackLifecycleTests {
    @Test func aTimeoutOnASleepingCallIsDeadlineExceededAndCancelsTheHandler() async throws {
        let probe = CancellationProbe()
        try await Loopback.run(services: [probe]) { loopback in
            let error = await #expect(throws: RPCError.self) {
                try await loopback.client.unary(
                    request: ClientRequest(message: [UInt8]()), method: CancellationProbe.method,
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder(),
                    options: CallOptions(timeout: .milliseconds(100)))
            }
            #expect(error?.code == .deadlineExceeded)
            await probe.cancelled.wait()
        }
    }

    @Test func cancellingTheCallingTaskCancelsTheHandler() async throws {
        let probe = CancellationProbe()
        try await Loopback.run(services: [probe]) { loopback in
            let call = Task {
                try await loopback.client.unary(
                    request: ClientRequest(message: [UInt8]()), method: CancellationProbe.method,
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder())
            }
            await probe.started.wait()
            call.cancel()
            let error = await #expect(throws: RPCError.self) { try await call.value }
            #expect(error?.code == .cancelled)
            await probe.cancelled.wait()
        }
    }

    @Test func leavingAStreamEarlyCancelsTheServerSide() async throws {
        try await Loopback.run { loopback in
            let first = try await loopback.client.serverStreaming(
                request: ClientRequest(
                    message: [1], metadata: Metadata(["x-reply-count": "100000", "x-reply-size": "1000"])),
                method: SteeredTestService.serverStream, serializer: RawBytesCoder(), deserializer: RawBytesCoder()
            ) { responses in
                for try await message in responses { return message.count }
                return 0
            }
            #expect(first == 1000)
            // The connection is still good for the next call.
            #expect(try await loopback.client.steeredUnary([5]).message == [5])
        }
    }

    @Test func aSlowServerSideReaderSlowsTheClientWriter() async throws {
        let gate = Signal()
        let reader = GatedReader(gate: gate)
        let written = ByteCounter()
        let total = 600 * 65_536
        try await Loopback.run(services: [reader]) { loopback in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await loopback.client.clientStreaming(
                        method: GatedReader.method, serializer: RawBytesCoder(), deserializer: RawBytesCoder()
                    ) { writer in
                        let chunk = [UInt8](repeating: 3, count: 65_536)
                        for _ in 0..<600 {
                            try await writer.write(chunk)
                            written.add(chunk.count)
                        }
                    }
                }
                let stalledAt = await settledValue { written.value }
                #expect(stalledAt < total / 2, "the writer must wait for the reader (wrote \(stalledAt) of \(total))")
                gate.signal()
                try await group.waitForAll()
            }
        }
        #expect(written.value == total)
        #expect(reader.total.value == total)
    }

    @Test func theClientReconnectsAfterTheServerRestarts() async throws {
        let first = NIOServerTransport(host: "127.0.0.1", port: 0)
        let port = try await serveBriefly(first) { port in
            let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
            return (client, port)
        }
        let (client, boundPort) = port
        #expect(try await client.steeredUnary([1]).message == [1])
        first.beginGracefulShutdown()
        try await waitUntilRefused(boundPort)
        let second = NIOServerTransport(host: "127.0.0.1", port: boundPort)
        let server = GRPCServer(transport: second, services: [SteeredTestService()])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.serve() }
            _ = try await second.listeningAddress()
            #expect(try await client.steeredUnary([2]).message == [2])
            server.beginGracefulShutdown()
            client.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }

    @Test func cancellingServeCancelsTheCallsInFlightAndReturns() async throws {
        let probe = CancellationProbe()
        let transport = NIOServerTransport(host: "127.0.0.1", port: 0)
        let server = GRPCServer(transport: transport, services: [probe])
        let serving = Task { try await server.serve() }
        let port = try await transport.listeningAddress().port!
        let client = GRPCClient(transport: NIOClientTransport(host: "127.0.0.1", port: port))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            group.addTask {
                _ = try? await client.unary(
                    request: ClientRequest(message: [UInt8]()), method: CancellationProbe.method,
                    serializer: RawBytesCoder(), deserializer: RawBytesCoder())
            }
            await probe.started.wait()
            serving.cancel()
            await probe.cancelled.wait()  // the handler saw its task cancelled
            try? await serving.value  // and serve() returned
            client.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }

    @Test func gracefulShutdownFinishesCallsInFlightAndRefusesNewOnes() async throws {
        let service = SteeredTestService()
        try await Loopback.run(services: [service]) { loopback in
            async let slow = loopback.client.steeredUnary([8], metadata: Metadata(["x-sleep-ms": "300"]))
            // In flight means its handler runs (a fixed wait lost the race on a busy machine).
            while service.counters.startedCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            loopback.server.beginGracefulShutdown()
            #expect(try await slow.message == [8])
            let error = await #expect(throws: RPCError.self) { try await loopback.client.steeredUnary([9]) }
            #expect(error?.code == .unavailable)
        }
    }

    /// A request the client had queued (the server allows one stream at a time) when the
    /// GOAWAY came never leaves: nghttp2 drops its HEADERS, and the call must end at once
    /// with UNAVAILABLE (safe to retry), not wait for the connection to close or its deadline.
    @Test func aRequestStillQueuedWhenGoAwayArrivesEndsUnavailable() async throws {
        let serverConfig = NIOServerConfig(http2: HTTP2Config(maxConcurrentStreams: 1))
        let service = SteeredTestService()
        try await Loopback.run(services: [service], serverConfig: serverConfig) { loopback in
            let client = loopback.client
            let firstEnded = Atomic<Bool>(false)
            // The call in flight outlasts any machine's slowness; the test cancels it at the end.
            let first = Task {
                defer { firstEnded.store(true, ordering: .sequentiallyConsistent) }
                return try await client.steeredUnary([1], metadata: Metadata(["x-sleep-ms": "600000"]))
            }
            // The first call holds the only stream (a fixed wait lost the race on a busy pool).
            while service.counters.startedCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let queued = Task { try await client.steeredUnary([2], timeout: .seconds(20)) }
            try await Task.sleep(for: .milliseconds(100))
            loopback.server.beginGracefulShutdown()
            let error = await #expect(throws: RPCError.self) { try await queued.value }
            #expect(error?.code == .unavailable, "\(String(describing: error))")
            // An order, not a speed: only the end of the call in flight lets the connection
            // close, and it never ends by itself; the queued call ended by the GOAWAY.
            let firstEndedAlready = firstEnded.load(ordering: .sequentiallyConsistent)
            #expect(!firstEndedAlready, "the queued call waited for the connection to close")
            first.cancel()
            let ended = await #expect(throws: RPCError.self) { try await first.value }
            #expect(ended?.code == .cancelled, "\(String(describing: ended))")
        }
    }
}

/// Polls `value` until it stops changing for a while (at most a few seconds).
func settledValue(_ value: () -> Int) async -> Int {
    var last = -1
    var unchanged = 0
    for _ in 0..<300 where unchanged < 10 {
        try? await Task.sleep(for: .milliseconds(20))
        let now = value()
        unchanged = now == last ? unchanged + 1 : 0
        last = now
    }
    return last
}

/// Runs a server on `transport` until `body` has made a client; keeps serving in the
/// background until the transport is shut down.
func serveBriefly<R: Sendable>(_ transport: NIOServerTransport, _ body: (Int) async throws -> R) async throws -> R {
    let server = GRPCServer(transport: transport, services: [SteeredTestService()])
    let serving = Task { try await server.serve() }
    _ = serving
    let port = try await transport.listeningAddress().port!
    return try await body(port)
}

/// Waits until nothing listens on `port` any more.
func waitUntilRefused(_ port: Int) async throws {
    for _ in 0..<200 {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(
                host: "127.0.0.1", port: port
            ).get()
            try await channel.close()
            try await Task.sleep(for: .milliseconds(10))
        } catch {
            return
        }
    }
}
