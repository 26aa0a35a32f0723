// glimpse-interop-server: grpc.testing.TestService (plus health and reflection) on the
// nghttp2 transport, for stock gRPC interop clients.
//
//     glimpse-interop-server --port 50051 [--host 127.0.0.1]
//
// Prints `listening on port N` once bound (port 0 picks one); SIGTERM or SIGINT shuts
// down gracefully, letting calls in flight finish, then prints how many unary calls ended
// OK and how many did not (`statuses: ok=N failed=M`).
import ArgumentParser
import Dispatch
import GlimpseInterop
import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import ServiceKit

#if canImport(Glibc)
import Glibc
#endif

@main
struct InteropServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-interop-server",
        abstract: "grpc.testing.TestService for gRPC interoperability tests.")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 0
    @Option(name: .customLong("use_tls"), help: "TLS is not supported; must be false.") var useTLS = false
    /// Half the cores by default: the handlers run on Swift's global executor, which has a
    /// thread per core of its own. On two cores, one loop gave 0.64 of nghttpd's unary
    /// req/s against 0.60 with two (`Benchmarks/rpc.sh`, alternating rounds): the loop
    /// finds more requests per wake-up, and fewer threads compete for the cores.
    @Option(help: "Event loop threads for connections (default: half the cores, at least one).")
    var threads = max(1, System.coreCount / 2)
    @Option(name: .customLong("handler-threads"),
            help: "Threads that run handlers (0: Swift's global concurrent executor).") var handlerThreads = 0

    func validate() throws {
        guard !useTLS else { throw ValidationError("TLS is not supported: run with --use_tls false") }
        guard (0...65535).contains(port) else { throw ValidationError("port \(port) is out of range") }
        guard threads >= 1, handlerThreads >= 0 else { throw ValidationError("threads must be at least 1") }
    }

    func run() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let handlerGroup = handlerThreads > 0 ? MultiThreadedEventLoopGroup(numberOfThreads: handlerThreads) : nil
        let transport = NIOServerTransport(
            host: host, port: port, group: group,
            handlerExecutor: handlerGroup.map { EventLoopTaskExecutor(group: $0) })
        let test = InteropTestService()
        let services = StandardServices.adding(
            to: [test], serviceNames: [GrpcTesting.TestService.name],
            descriptors: GlimpseInteropDescriptors.files, health: HealthStatusStore())
        let server = GRPCServer(transport: transport, services: services)
        let signals = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { @Sendable in server.beginGracefulShutdown() }
            source.resume()
            return source
        }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.serve() }
            let address = try await transport.listeningAddress()
            print("listening on port \(address.port ?? 0)")
            fflush(nil)  // all streams: the line must reach a pipe now
        }
        withExtendedLifetime(signals) {}
        print("statuses: ok=\(test.counters.okCount) failed=\(test.counters.failedCount)")
        try await group.shutdownGracefully()
        try await handlerGroup?.shutdownGracefully()
    }
}
