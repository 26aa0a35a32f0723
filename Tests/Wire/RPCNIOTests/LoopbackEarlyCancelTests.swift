import Dispatch
import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import RPCTestService
import Testing

/// Calls cancelled before they are under way: while their connection is being made, or
/// opened by an already cancelled task so that their request HEADERS are still queued.
/// Each must end CANCELLED, leave the client usable, and let both sides shut down.
@Suite("Loopback: calls cancelled before they start")
struct LoopbackEarlyCancelTests {
    @Test(arguments: [false, true])
    func aCallStartedByACancelledTaskEndsCancelledAndTheClientStaysUsable(connectedFirst: Bool) async throws {
        try await withTimeout {
            try await Loopback.run { (loopback: Loopback) async throws in
                if connectedFirst { #expect(try await loopback.client.steeredUnary([1]).message == [1]) }
                let call = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await loopback.client.steeredUnary([2])
                }
                let error = await #expect(throws: RPCError.self) { try await call.value }
                #expect(error?.code == .cancelled)
                #expect(try await loopback.client.steeredUnary([3]).message == [3])
            }
        }
    }

    /// The interop case `cancel_after_begin` as the first call of a fresh client: the
    /// request producer fails (its sleep is cancelled) without ending the requests, so the
    /// call ends CANCELLED, or with the producer's CancellationError when the stream opened.
    @Test func cancellingTheFirstCallOfAFreshClientEndsIt() async throws {
        try await withTimeout {
            try await Loopback.run { (loopback: Loopback) async throws in
                let call = Task {
                    try await loopback.client.clientStreaming(
                        method: SteeredTestService.clientStream, serializer: RawBytesCoder(),
                        deserializer: RawBytesCoder()
                    ) { _ in
                        try await Task.sleep(for: .seconds(30))
                    }
                }
                call.cancel()
                do {
                    _ = try await call.value
                    Issue.record("the cancelled call succeeded")
                } catch let error as RPCError {
                    #expect(error.code == .cancelled)
                } catch {
                    #expect(error is CancellationError)
                }
                #expect(try await loopback.client.steeredUnary([4]).message == [4])
            }
        }
    }
}

extension LoopbackEarlyCancelTests {
    /// The client's only event loop is held up, so its connection cannot be made: the
    /// cancelled call must not wait for it, and the connection made afterwards serves.
    @Test func aCallCancelledWhileItsConnectionIsBeingMadeEndsWithoutIt() async throws {
        let clientLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let release = DispatchSemaphore(value: 0)
        clientLoops.next().execute { release.wait() }
        defer { release.signal() }  // whatever happens, the loop is let go
        try await withTimeout {
            let serverTransport = NIOServerTransport(host: "127.0.0.1", port: 0)
            let server = GRPCServer(transport: serverTransport, services: [SteeredTestService()])
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.serve() }
                let port = try await serverTransport.listeningAddress().port!
                let client = GRPCClient(
                    transport: NIOClientTransport(host: "127.0.0.1", port: port, group: clientLoops))
                group.addTask { try await client.run() }
                let call = Task { try await client.steeredUnary([1]) }
                call.cancel()
                let error = await #expect(throws: RPCError.self) { try await call.value }
                #expect(error?.code == .cancelled)
                release.signal()
                #expect(try await client.steeredUnary([2]).message == [2])
                client.beginGracefulShutdown()
                server.beginGracefulShutdown()
                try await group.waitForAll()
            }
        }
        try await clientLoops.shutdownGracefully()
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String { "gave up waiting (the code under test hangs)" }
}

/// Runs `body`, throwing `TimedOut` if it has not returned within `limit`: a guard that
/// turns a hang into a failure, far above what `body` needs, never a measurement. A body
/// stuck where cancellation does not reach is left behind rather than waited for.
func withTimeout<R: Sendable>(
    _ limit: Duration = .seconds(60), _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
    let outcome = InboundQueue<Result<R, any Error>>()
    let work = Task {
        do { outcome.push(.success(try await body())) } catch { outcome.push(.failure(error)) }
    }
    let timer = Task {
        try await Task.sleep(for: limit)
        outcome.push(.failure(TimedOut()))
    }
    defer {
        timer.cancel()
        work.cancel()
    }
    guard let first = try await outcome.next() else { throw TimedOut() }
    return try first.get()
}
