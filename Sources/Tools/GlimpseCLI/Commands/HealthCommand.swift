import ArgumentParser
import GlimpseMessages
import GlimpseRPC
import RPCCore
import RPCNIO
import GlimpseVocabulary

/// `glimpse health --target host:port`: `grpc.health.v1.Health/Check` against any Glimpse
/// server (a service, the gateway, a demo app), for container healthchecks and scripts.
/// Prints the status (SERVING, NOT_SERVING, …) and exits 0 only for SERVING.
struct HealthCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Ask a Glimpse server for its health (grpc.health.v1.Health/Check); exit 0 only when SERVING.",
        discussion: """
            Prints the status (SERVING, NOT_SERVING, UNKNOWN) on standard output. Exit status: \
            0 SERVING; 1 anything else — not serving yet or shutting down, a --service the \
            server does not know, nothing listening, or no answer within --timeout (the reason \
            on standard error). A compose healthcheck: `glimpse health --target 127.0.0.1:7701`.
            """)

    @Option(help: ArgumentHelp("The server to ask.", valueName: "host:port"))
    var target: String

    @Option(
        help: ArgumentHelp(
            "The service to ask about, e.g. glimpse.timeline.v1.TimelineService (default: the server as a whole).",
            valueName: "name"))
    var service = ""

    @Option(
        help: ArgumentHelp(
            "How long to wait for the connection and the answer (e.g. 2s, 500ms).", valueName: "duration"))
    var timeout = "2s"

    func address() throws(CLIFailure) -> HostPort {
        try HostPort(parsing: target, what: "--target")
    }

    func deadline() throws(CLIFailure) -> Duration {
        let seconds: Double
        do { seconds = try DurationText.parse(timeout) } catch { throw .usage("--timeout: \(error.description)") }
        guard seconds > 0 else { throw .usage("--timeout: must be more than 0, got \"\(timeout)\"") }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    func run() async throws {
        // Usage errors (exit 2) before anything is called.
        let address = try address()
        let timeout = try deadline()
        let status = try await Self.check(address, service: service, timeout: timeout)
        Current.context.say(Self.name(of: status))
        guard status == .serving else {
            let what = service.isEmpty ? "" : " \(service)"
            throw CLIFailure.local("\(address)\(what) is \(Self.name(of: status)), not SERVING")
        }
    }

    /// The status `address` reports for `service` ("" for the whole server). Every way of
    /// not getting one is a `CLIFailure` with exit status 1 and the reason.
    static func check(
        _ address: HostPort, service: String, timeout: Duration
    ) async throws(CLIFailure) -> GrpcHealthV1.HealthCheckResponse.ServingStatus {
        var config = NIOClientConfig.defaults
        config.connectTimeout = timeout
        config.userAgent = "glimpse-cli/0.1"
        let client = GRPCClient(transport: NIOClientTransport(host: address.host, port: address.port, config: config))
        let running = Task { try? await client.run() }
        let result: Result<GrpcHealthV1.HealthCheckResponse.ServingStatus, RPCError>
        do {
            let health = GrpcHealthV1.Health.Client(wrapping: client)
            let response = try await health.check(
                ClientRequest(message: GrpcHealthV1.HealthCheckRequest(service: service)),
                options: CallOptions(timeout: timeout))
            result = .success(response.message.status)
        } catch let error as RPCError {
            result = .failure(error)
        } catch {
            result = .failure(RPCError(code: .unknown, message: "\(error)"))
        }
        client.beginGracefulShutdown()
        await running.value
        switch result {
        case .success(let status):
            return status
        case .failure(let error):
            throw failure(error, address: address, service: service, timeout: timeout)
        }
    }

    /// A call's error in words: nothing listening, no answer in time, or what the server said.
    static func failure(_ error: RPCError, address: HostPort, service: String, timeout: Duration) -> CLIFailure {
        if error.code == .unavailable, let detail = CLIFailure.transportFailure(error.message) {
            return .local("cannot reach \(address) (\(detail))")
        }
        if error.code == .deadlineExceeded {
            return .local("no answer from \(address) within \(seconds(timeout))")
        }
        if error.code == .notFound {
            return .local("\(address) does not know the service \"\(service)\" (NOT_FOUND)")
        }
        if error.code == .unimplemented {
            return .local("\(address) does not serve grpc.health.v1.Health (UNIMPLEMENTED)")
        }
        return .local("\(address): \(error.code)" + (error.message.isEmpty ? "" : ": \(error.message)"))
    }

    /// "2s", "0.5s".
    static func seconds(_ duration: Duration) -> String {
        duration.components.attoseconds == 0 ? "\(duration.components.seconds)s" : "\(duration.seconds)s"
    }

    /// health.proto's name for a status.
    static func name(of status: GrpcHealthV1.HealthCheckResponse.ServingStatus) -> String {
        switch status {
        case .unknown: "UNKNOWN"
        case .serving: "SERVING"
        case .notServing: "NOT_SERVING"
        case .serviceUnknown: "SERVICE_UNKNOWN"
        case .unrecognized(let value): "UNRECOGNIZED(\(value))"
        }
    }
}
