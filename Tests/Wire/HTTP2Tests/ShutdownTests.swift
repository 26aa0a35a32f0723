import Foundation
import HTTP2
import NIOCore
import Logging
import ServiceLifecycle
import Testing

/// The server as a swift-service-lifecycle service, the way RPCServerService runs the
/// gRPC server: a graceful shutdown lets streams in flight finish.
@Suite(.timeLimit(.minutes(2)))
struct ShutdownTests {
    /// What a service would write: run the server; on graceful shutdown, begin its own.
    struct PushEndpoint: Service {
        let server: HTTP2Server
        let shutdownBegun: @Sendable () -> Void

        func run() async throws {
            try await withGracefulShutdownHandler {
                try await server.run()
            } onGracefulShutdown: {
                server.beginGracefulShutdown()
                shutdownBegun()
            }
        }
    }

    @Test func gracefulShutdownLetsTheStreamInFlightFinishThenRunReturns() async throws {
        let handler = TestHandler()
        let server = HTTP2Server(listeners: [.cleartext(port: 0)], handler: handler)
        let (shutdownBegun, begun) = AsyncStream<Void>.makeStream()
        let group = ServiceGroup(
            configuration: .init(
                services: [PushEndpoint(server: server, shutdownBegun: { begun.yield() })],
                logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let port = try #require(try await server.listeningAddresses().first?.port)
            async let held = Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(port)/hold"])
            await handler.hold.waitForArrivals(1)
            await group.triggerGracefulShutdown()
            for await _ in shutdownBegun { break }
            handler.hold.open()  // only now can the held stream be answered
            let response = try await held
            #expect(response.exitCode == 0, "\(response.stderr)")
            #expect(response.status == 200)
            #expect(response.text == "held")
            try await tasks.next()  // the group, and with it `run`, has returned
        }
        #expect(handler.closedConnections.count == 1)
    }

    @Test func cancellingRunClosesConnectionsAndCancelsHandlers() async throws {
        let handler = TestHandler()
        let server = HTTP2Server(listeners: [.cleartext(port: 0)], handler: handler)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await server.run() }
            let port = try #require(try await server.listeningAddresses().first?.port)
            async let held = Peers.curl(["--http2-prior-knowledge", "http://127.0.0.1:\(port)/hold"])
            await handler.hold.waitForArrivals(1)
            tasks.cancelAll()
            try await tasks.next()  // `run` returned: the held handler was cancelled
            let response = try await held
            #expect(response.exitCode != 0)  // the connection closed without an answer
        }
    }
}
