import RPCCore
import RPCNIO
import RPCTestService
import Synchronization
import Testing

/// `NIOServerConfig.idleTimeout` between the project's own client and server: a connection
/// with no call open is closed with GOAWAY, and the client's next call goes out on a new one;
/// a connection with a call open, however quiet, is kept. The test waits for the server's
/// report of the close, never on a clock of its own.
@Suite("Loopback: idle connections", .timeLimit(.minutes(1)))
struct IdleConnectionTests {
    final class Reports: Sendable {
        let closes = AsyncStream<Void>.makeStream()
        let count = Mutex(0)
        var sink: ConnectionEventSink {
            { [self] event in
                guard case .idleClosed = event else { return }
                count.withLock { $0 += 1 }
                closes.continuation.yield()
            }
        }
    }

    static func reporting(idleTimeout: Duration) -> (Reports, NIOServerConfig) {
        let reports = Reports()
        var config = NIOServerConfig.defaults
        config.idleTimeout = idleTimeout
        config.events = reports.sink
        return (reports, config)
    }

    @Test func aClientWhoseIdleConnectionWasClosedCallsAgainOnANewOne() async throws {
        let (reports, config) = Self.reporting(idleTimeout: .milliseconds(50))
        let sink = reports.closes.stream
        try await Loopback.run(serverConfig: config) { loopback in
            var closes = sink.makeAsyncIterator()
            let first = try await loopback.client.steeredUnary([1])
            #expect(first.message == [1])
            _ = await closes.next()  // the server closed the idle connection
            let second = try await loopback.client.steeredUnary([2])
            #expect(second.message == [2])
        }
    }

    @Test("calls made just as the server closes an idle connection are made again on a new one, never lost")
    func callsRacingTheIdleClose() async throws {
        var config = NIOServerConfig.defaults
        config.idleTimeout = .milliseconds(20)
        try await Loopback.run(serverConfig: config) { loopback in
            // Pauses around the idle timeout: some calls leave just as the server says GOAWAY
            // (their request never sent: the client makes them again), others after.
            for i in 0..<100 {
                try await Task.sleep(for: .milliseconds(15 + i % 10))
                let reply = try await loopback.client.steeredUnary([UInt8(i)])
                #expect(reply.message == [UInt8(i)])
            }
        }
    }

    @Test func aConnectionWithACallOpenIsNotIdle() async throws {
        let (reports, config) = Self.reporting(idleTimeout: .milliseconds(50))
        let sink = reports.closes.stream
        try await Loopback.run(serverConfig: config) { loopback in
            var closes = sink.makeAsyncIterator()
            let (requests, more) = AsyncStream<[UInt8]>.makeStream()
            let echoed = try await loopback.client.bidirectionalStreaming(
                method: SteeredTestService.bidi, serializer: RawBytesCoder(), deserializer: RawBytesCoder(),
                requestProducer: { writer in
                    for await request in requests { try await writer.write(request) }
                }
            ) { responses in
                var echoed: [[UInt8]] = []
                more.yield([1])
                for try await response in responses {
                    echoed.append(response)
                    if echoed.count == 1 {
                        // The call is open on the server now. Quiet for longer than the idle
                        // timeout, then one more message: the connection must still be there.
                        let before = reports.count.withLock { $0 }
                        try await Task.sleep(for: .milliseconds(300))
                        #expect(reports.count.withLock { $0 } == before)
                        more.yield([2])
                        more.finish()
                    }
                }
                return echoed
            }
            #expect(echoed == [[1], [2]])
            _ = await closes.next()  // closed once idle after the call
        }
    }
}
