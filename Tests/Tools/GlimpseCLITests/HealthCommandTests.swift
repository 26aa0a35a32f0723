#if canImport(Glibc)
import Glibc
#endif
import GlimpseCLI
import GlimpseMessages
import NIOCore
import RPCCore
import RPCNIO
import ServiceKit
import Testing

/// `glimpse health` against a real gRPC server on port 0 serving `grpc.health.v1.Health` as
/// every Glimpse service does (ServiceKit's health and reflection), and against ports that
/// do not answer.
@Suite("health: grpc.health.v1 Check for healthchecks")
struct HealthCommandTests {
    func run(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
        let out = CapturedOutput(), err = CapturedOutput()
        let status = await GlimpseTool.run(arguments: arguments, output: out, errorOutput: err)
        return (status, out.text, err.text)
    }

    static let service = "glimpse.test.v1.Probe"
    /// Calls that must be answered get a deadline no busy machine reaches; the default 2s
    /// is a rule of its own, held up by a port that never answers (`deadline`).
    static let patient = ["--timeout", "120s"]

    @Test("SERVING exits 0; NOT_SERVING (not ready, or one service) and an unknown service exit 1 with the reason")
    func statuses() async throws {
        let health = HealthStatusStore([:])
        let services = StandardServices.adding(
            to: [], serviceNames: [Self.service], descriptors: [], health: health, initialStatus: .notServing)
        let transport = NIOServerTransport(host: "127.0.0.1", port: 0)
        let server = GRPCServer(transport: transport, router: RPCRouter(services: services))
        try await withThrowingTaskGroup { group in
            group.addTask { try await server.serve() }
            let port = try #require(try await transport.listeningAddress().port)
            let target = "127.0.0.1:\(port)"

            // As a service before its store is open: NOT_SERVING.
            let early = await run(["health", "--target", target] + Self.patient)
            #expect(early.status == 1)
            #expect(early.out == "NOT_SERVING\n")
            #expect(early.err == "error: \(target) is NOT_SERVING, not SERVING\n")

            health.set(.serving, for: "")
            let ready = await run(["health", "--target", target] + Self.patient)
            #expect(ready.status == 0, "\(ready.err)")
            #expect(ready.out == "SERVING\n")
            #expect(ready.err.isEmpty)

            let one = await run(["health", "--target", target, "--service", Self.service] + Self.patient)
            #expect(one.status == 1)
            #expect(one.out == "NOT_SERVING\n")
            #expect(one.err.contains(Self.service))
            health.set(.serving, for: Self.service)
            #expect(await run(["health", "--target", target, "--service", Self.service] + Self.patient).status == 0)

            let unknown = await run(["health", "--target", target, "--service", "no.such.Service"] + Self.patient)
            #expect(unknown.status == 1)
            #expect(unknown.out.isEmpty)
            #expect(unknown.err == "error: \(target) does not know the service \"no.such.Service\" (NOT_FOUND)\n")

            // Shutting down: NOT_SERVING again.
            health.shutDown()
            #expect(await run(["health", "--target", target] + Self.patient).out == "NOT_SERVING\n")
            server.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }

    @Test("nothing listening: exit 1, connection refused")
    func refused() async throws {
        let port = try Self.closedPort()
        let result = await run(["health", "--target", "127.0.0.1:\(port)"])
        #expect(result.status == 1)
        #expect(result.out.isEmpty)
        #expect(result.err == "error: cannot reach 127.0.0.1:\(port) (connection refused)\n")
    }

    @Test("a port that accepts but never answers: exit 1 at --timeout, which the message names")
    func deadline() async throws {
        let (socket, port) = try Self.silentListener()
        defer { close(socket) }
        // The message names the deadline it gave up at (no test asserts a time).
        let result = await run(["health", "--target", "127.0.0.1:\(port)", "--timeout", "300ms"])
        #expect(result.status == 1)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix("error: "), "\(result.err)")
        #expect(result.err.contains("127.0.0.1:\(port)"), "\(result.err)")
        #expect(result.err.contains("0.3s") || result.err.contains("timed out"), "\(result.err)")
    }

    @Test(
        "usage errors: exit 2",
        arguments: [
            ["health"], ["health", "--target", "nowhere"], ["health", "--target", "127.0.0.1:1", "--timeout", "soon"],
            ["health", "--target", "127.0.0.1:1", "--timeout", "0s"],
        ])
    func usage(arguments: [String]) async {
        let result = await run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test("demo-setup refuses a malformed --app before calling anything")
    func demoSetupUsage() async {
        let result = await run(["demo-setup", "--app", "rtlair", "--gateway", "127.0.0.1:1"])
        #expect(result.status == 2)
        #expect(result.err.contains("name=host:port"), "\(result.err)")
    }

    /// A loopback port nothing listens on (bound, then closed).
    static func closedPort() throws -> Int {
        let (socket, port) = try silentListener()
        close(socket)
        return port
    }

    /// A listening socket that never accepts: connections complete in the kernel's backlog
    /// and nothing is ever answered.
    static func silentListener() throws -> (Int32, Int) {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(bound == 0)
        try #require(listen(fd, 16) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        try #require(named == 0)
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
