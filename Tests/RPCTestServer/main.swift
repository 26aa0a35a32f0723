// glimpse-rpc-testserver: the steered raw-bytes test service (see RPCTestService) on the
// HTTP/2 transport, for real peers (Tests/Peers, grpcio) and the benchmark.
//
//     glimpse-rpc-testserver [--host 127.0.0.1] [--port 0] [--threads 1] [--handler-threads 1]
//                            [--keepalive-ms N] [--max-receive-bytes N]
//
// Prints `listening on port N` once bound; on SIGTERM or SIGINT shuts down gracefully and
// prints `statuses: ok=N failed=M` (h2load cannot see grpc-status; this can).
import Dispatch
import NIOCore
import NIOPosix
import RPCCore
import RPCNIO
import RPCTestService

#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var host = "127.0.0.1"
    var port = 0
    var threads = 1
    var handlerThreads = 0
    var keepalive: KeepaliveConfig? = .serverDefaults
    var maxReceiveMessageSize = 4 * 1024 * 1024

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { Self.usage("missing value for \(flag)") }
            switch flag {
            case "--host": host = value
            case "--port": port = Self.number(value, flag)
            case "--threads": threads = Self.number(value, flag)
            case "--handler-threads": handlerThreads = Self.number(value, flag)
            case "--keepalive-ms":
                let ms = Self.number(value, flag)
                keepalive = KeepaliveConfig(interval: .milliseconds(ms), timeout: .milliseconds(ms))
            case "--max-receive-bytes": maxReceiveMessageSize = Self.number(value, flag)
            default: Self.usage("unknown flag \(flag)")
            }
        }
    }

    static func number(_ value: String, _ flag: String) -> Int {
        guard let number = Int(value), number >= 0 else { usage("bad value \(value) for \(flag)") }
        return number
    }

    static func usage(_ problem: String) -> Never {
        FileHandleOutput.error(
            "glimpse-rpc-testserver: \(problem)\nusage: glimpse-rpc-testserver [--host H] [--port N] [--threads N] [--handler-threads N] [--keepalive-ms N] [--max-receive-bytes N]"
        )
        exit(2)
    }
}

enum FileHandleOutput {
    static func line(_ text: String) {
        print(text)
        fflush(nil)
    }

    static func error(_ text: String) {
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

let options = Options(CommandLine.arguments)
let group = MultiThreadedEventLoopGroup(numberOfThreads: options.threads)
var config = NIOServerConfig.defaults
config.keepalive = options.keepalive
config.maxReceiveMessageSize = options.maxReceiveMessageSize
// Handlers run on their own loop threads (0: on Swift's global concurrent executor).
let handlerGroup =
    options.handlerThreads > 0 ? MultiThreadedEventLoopGroup(numberOfThreads: options.handlerThreads) : nil
let transport = NIOServerTransport(
    host: options.host, port: options.port, config: config, group: group,
    handlerExecutor: handlerGroup.map { EventLoopTaskExecutor(group: $0) })
let counters = StatusCounters()
let server = GRPCServer(transport: transport, services: [SteeredTestService(counters: counters)])

/// SIGTERM and SIGINT begin a graceful shutdown (the handler runs on a Dispatch queue, so
/// it must not be main-actor code).
func shutDownOnSignals(_ server: GRPCServer) -> [any DispatchSourceSignal] {
    [SIGTERM, SIGINT].map { signalNumber in
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { @Sendable in server.beginGracefulShutdown() }
        source.resume()
        return source
    }
}
let signalSources = shutDownOnSignals(server)

await withDiscardingTaskGroup { tasks in
    tasks.addTask {
        do {
            try await server.serve()
        } catch {
            FileHandleOutput.error("glimpse-rpc-testserver: \(error)")
            exit(1)
        }
    }
    tasks.addTask {
        guard let address = try? await transport.listeningAddress() else { return }
        FileHandleOutput.line("listening on port \(address.port ?? 0)")
    }
}
FileHandleOutput.line("statuses: ok=\(counters.okCount) failed=\(counters.failedCount)")
try? await group.shutdownGracefully()
try? await handlerGroup?.shutdownGracefully()
