import CNghttp2
import NIOCore
import NIOEmbedded
@testable import RPCNIO
import RPCCore
import RPCTestService
import Synchronization
import Testing

@Suite("Server connection handler: deadlines, cancellation, flow control, shutdown")
struct HandlerLifecycleTests {
    @Test func anExpiredDeadlineAnswersDeadlineExceededThenResets() async throws {
        let probe = CancellationProbe()
        let server = try await EmbeddedServer(services: [probe])
        try await server.serving {
            let id = server.client.request(
                path: CancellationProbe.method.path, headers: [("grpc-timeout", "100m")], body: grpcMessage([]))
            try await server.pump()
            await probe.started.wait()
            await server.channel.testingEventLoop.advanceTime(by: .milliseconds(150))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            let record = try #require(server.client.streams[id])
            #expect(record.grpcStatus == 4)
            #expect(record.resetCode == 0, "RST_STREAM(NO_ERROR) after the status")
            await probe.cancelled.wait()
        }
        try await server.finish()
    }

    @Test func aDeadlineNotYetReachedLeavesTheCallAlone() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(
                path: steeredUnaryPath, headers: [("grpc-timeout", "10S")], body: grpcMessage([7]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 0)
        }
        try await server.finish()
    }

    @Test func aClientResetCancelsTheHandler() async throws {
        let probe = CancellationProbe()
        let server = try await EmbeddedServer(services: [probe])
        try await server.serving {
            let id = server.client.request(path: CancellationProbe.method.path, body: grpcMessage([]))
            try await server.pump()
            await probe.started.wait()
            server.client.reset(id)
            try await server.pump()
            await probe.cancelled.wait()
        }
        try await server.finish()
    }

    @Test func windowUpdatesWaitForTheHandlerToRead() async throws {
        let gate = Signal()
        let reader = GatedReader(gate: gate)
        var config = NIOServerConfig.defaults
        config.http2.initialStreamWindowSize = 65_535
        config.http2.eagerReleaseAllowance = 0
        let server = try await EmbeddedServer(config: config, services: [reader])
        try await server.serving {
            let chunk = grpcMessage(Array(repeating: 1, count: 16_000))
            let id = server.client.request(
                path: GatedReader.method.path, body: Array(repeating: chunk, count: 8).flatMap { $0 }, end: false)
            for _ in 0..<50 { try await server.pump() }
            // The handler has not read: the stream window the server gave stays used up.
            #expect(server.client.remoteWindow(id) < 16_005)
            gate.signal()
            try await server.exchange { reader.total.value == 8 * 16_000 }
            // nghttp2 returns credit in WINDOW_UPDATEs of at least half the window.
            try await server.exchange { server.client.remoteWindow(id) > 40_000 }
            server.client.send([], on: id, end: true)
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 0)
        }
        try await server.finish()
    }

    @Test func aClientThatDoesNotReadStopsTheWriter() async throws {
        let server = try await EmbeddedServer(clientWindow: 65_535)
        try await server.serving {
            // 400 replies of 64 KiB = 25 MiB; the client never acknowledges anything.
            let id = server.client.request(
                path: SteeredTestService.serverStream.path,
                headers: [("x-reply-count", "400"), ("x-reply-size", "65536")], body: grpcMessage([]))
            for _ in 0..<200 {
                try await server.pump(deliverToClient: false)
                try await Task.sleep(for: .milliseconds(1))
            }
            // What left the server is bounded by the client's window, not by what was written.
            #expect(server.received.count < 1_000_000)
            #expect(server.client.streams[id] == nil || server.client.streams[id]?.isClosed == false)
        }
        try await server.finish()
    }

    @Test func gracefulShutdownLetsTheCallInFlightFinish() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            // In flight for a second: long enough that the shutdown begins while it runs,
            // even when the tests beside this one keep the cooperative pool busy.
            let id = server.client.request(
                path: steeredUnaryPath, headers: [("x-sleep-ms", "1000")], body: grpcMessage([4]))
            try await server.pump()
            try await server.channel.testingEventLoop.executeInContext {
                try server.channel.pipeline.syncOperations.handler(type: ServerConnectionHandler.self)
                    .beginGracefulShutdown()
            }
            // Seen in the server's output: if the test task is held up longer than the
            // call's second, the answer and the final GOAWAY reach the client together, and
            // its nghttp2 reads no further than the end of its last stream.
            try await server.exchange { Self.goAwayLastStreamIDs(in: server.received).last == id }
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 0)
            #expect(server.client.streams[id]?.data == grpcMessage([4]))
            try await server.exchange { !server.channel.isActive }
        }
        try await server.finish()
    }

    /// With no stream left, nghttp2 wants nothing more right after the GOAWAY notice; the
    /// final GOAWAY naming the last stream taken must still go out before the close.
    @Test func gracefulShutdownWithNoCallInFlightStillNamesTheLastStream() async throws {
        let server = try await EmbeddedServer()
        try await server.serving {
            let id = server.client.request(path: steeredUnaryPath, headers: [], body: grpcMessage([7]))
            try await server.exchange { server.client.streams[id]?.isClosed == true }
            #expect(server.client.streams[id]?.grpcStatus == 0)
            try await server.channel.testingEventLoop.executeInContext {
                try server.channel.pipeline.syncOperations.handler(type: ServerConnectionHandler.self)
                    .beginGracefulShutdown()
            }
            try await server.exchange { !server.channel.isActive }
            // The test client's nghttp2 stops reading after a GOAWAY with no stream open,
            // so look at the frames the server wrote.
            #expect(Self.goAwayLastStreamIDs(in: server.received) == [Int32.max, id])
        }
        try await server.finish()
    }

    /// Last-stream-ids of the GOAWAY frames in raw HTTP/2 server output, in order.
    static func goAwayLastStreamIDs(in bytes: [UInt8]) -> [Int32] {
        var ids: [Int32] = []
        var at = 0
        while at + 9 <= bytes.count {
            let length = Int(bytes[at]) << 16 | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
            let type = bytes[at + 3]
            let payload = at + 9
            if type == 0x7, payload + 4 <= bytes.count {
                let raw =
                    UInt32(bytes[payload]) << 24 | UInt32(bytes[payload + 1]) << 16
                    | UInt32(bytes[payload + 2]) << 8 | UInt32(bytes[payload + 3])
                ids.append(Int32(bitPattern: raw & 0x7fff_ffff))
            }
            at = payload + length
        }
        return ids
    }

    @Test func anUnansweredKeepalivePingClosesTheConnection() async throws {
        var config = NIOServerConfig.defaults
        config.keepalive = KeepaliveConfig(interval: .seconds(10), timeout: .seconds(5))
        let server = try await EmbeddedServer(config: config)
        server.client.autoPingAck = false
        try await server.pump()
        await server.channel.testingEventLoop.advanceTime(by: .seconds(10))
        try await server.pump()
        #expect(server.channel.isActive, "the PING went out; its answer is not late yet")
        await server.channel.testingEventLoop.advanceTime(by: .seconds(5))
        try await server.pump()
        #expect(!server.channel.isActive)
        try await server.finish()
    }

    @Test func anAnsweredKeepalivePingKeepsTheConnection() async throws {
        var config = NIOServerConfig.defaults
        config.keepalive = KeepaliveConfig(interval: .seconds(10), timeout: .seconds(5))
        let server = try await EmbeddedServer(config: config)
        try await server.pump()
        await server.channel.testingEventLoop.advanceTime(by: .seconds(10))
        try await server.pump()
        try await server.pump()
        await server.channel.testingEventLoop.advanceTime(by: .seconds(5))
        try await server.pump()
        #expect(server.channel.isActive)
        try await server.finish()
    }
}

/// A client-streaming method that reads nothing until `gate` opens, then counts the bytes.
struct GatedReader: RPCService {
    static let method = MethodDescriptor(service: "t.Gated", method: "Read")
    let gate: Signal
    let counter = ByteCounter()
    var total: ByteCounter { counter }

    init(gate: Signal) { self.gate = gate }

    func registerMethods(with router: inout RPCRouter) {
        let gate = self.gate, total = self.counter
        router.registerClientStreaming(Self.method, deserializer: RawBytesCoder(), serializer: RawBytesCoder()) {
            requests, _ in
            await gate.wait()
            for try await message in requests { total.add(message.count) }
            return ServerResponse(message: [])
        }
    }
}

/// A byte count shared between tasks.
final class ByteCounter: Sendable {
    private let count = Atomic<Int>(0)
    func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

@Suite("Server connection handler: memory")
struct HandlerMemoryTests {
    @Test func aClosedConnectionFreesItsHandler() async throws {
        let handler = WeakReference()
        do {
            let server = try await EmbeddedServer()
            try await server.serving {
                let id = server.client.request(path: steeredUnaryPath, body: grpcMessage([1]))
                try await server.exchange { server.client.streams[id]?.isClosed == true }
            }
            try await server.channel.testingEventLoop.executeInContext {
                handler.object = try server.channel.pipeline.syncOperations.handler(type: ServerConnectionHandler.self)
            }
            #expect(handler.object != nil)
            try await server.finish()
        }
        #expect(handler.object == nil, "the handler outlived its connection")
    }
}

/// Watches an object without keeping it alive. (Unchecked: set once on the event loop,
/// read after it is done.)
final class WeakReference: @unchecked Sendable {
    weak var object: AnyObject?
}
