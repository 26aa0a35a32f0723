// glimpse-interop-server: grpc.testing.TestService (plus health and reflection) on the
// nghttp2 transport, for stock gRPC interop clients.
//
//     glimpse-interop-server --port 50051 [--host 127.0.0.1] [--metrics-port 9100] [--json]
//
// With --json the same port also answers JSON for TestService's unary and server-streaming
// methods, over HTTP/1.1 and HTTP/2 (`POST /v1/test_service/unary_call`, …).
//
// Prints `listening on port N` once bound (port 0 picks one); SIGTERM or SIGINT shuts
// down gracefully (ServiceKit's runner), letting calls in flight finish, then prints how
// many unary calls ended OK and how many did not (`statuses: ok=N failed=M`).
import ArgumentParser
import GlimpseInterop
import GlimpseRPC
import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import ServiceKit

@main
struct InteropServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-interop-server",
        abstract: "grpc.testing.TestService for gRPC interoperability tests.")

    @OptionGroup var service: ServiceOptions
    @Option(name: .customLong("use_tls"), help: "TLS is not supported; must be false.") var useTLS = false
    /// Half the cores by default: the handlers run on Swift's global executor, which has a
    /// thread per core of its own. On two cores, one loop gave 0.64 of nghttpd's unary
    /// req/s against 0.60 with two (`Benchmarks/rpc.sh`, alternating rounds): the loop
    /// finds more requests per wake-up, and fewer threads compete for the cores.
    @Option(help: "Event loop threads for connections (default: half the cores, at least one).")
    var threads = max(1, System.coreCount / 2)
    @Option(
        name: .customLong("handler-threads"),
        help: "Threads that run handlers (0: Swift's global concurrent executor).") var handlerThreads = 0
    @Flag(
        help: "Also serve TestService as JSON (HTTP/1.1 and HTTP/2, POST /v1/test_service/<method>) on the same port.")
    var json = false

    func validate() throws {
        guard !useTLS else { throw ValidationError("TLS is not supported: run with --use_tls false") }
        guard threads >= 1, handlerThreads >= 0 else { throw ValidationError("threads must be at least 1") }
    }

    func run() async throws {
        let config = try service.resolve(service: "interop")
        let logger = ServiceLogging.bootstrap(config)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let handlerGroup = handlerThreads > 0 ? MultiThreadedEventLoopGroup(numberOfThreads: handlerThreads) : nil
        let test = InteropTestService()
        var runner = ServiceRunner(
            config: config, logger: logger, services: [test], serviceNames: [GrpcTesting.TestService.name],
            descriptors: GlimpseInteropDescriptors.files)
        runner.eventLoopGroup = group
        runner.handlerExecutor = handlerGroup.map { EventLoopTaskExecutor(group: $0) }
        if json { runner.jsonServices = [test] }
        runner.markReady()  // nothing to open first
        try await runner.run()
        print("statuses: ok=\(test.counters.okCount) failed=\(test.counters.failedCount)")
        try await group.shutdownGracefully()
        try await handlerGroup?.shutdownGracefully()
    }
}
