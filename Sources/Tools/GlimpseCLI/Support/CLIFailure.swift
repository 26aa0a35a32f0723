package import RPCCore

/// How a run ends when it does not succeed, and the exit status that tells a script why:
/// 1 the gateway (or the APNs endpoint) answered an error, 2 a usage error (bad flags,
/// arguments or input files), 3 the gateway could not be reached.
package enum CLIFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The gateway answered with a status other than OK.
    case gateway(code: StatusCode, message: String)
    /// Nothing answered at `address` (what: "the gateway", "the APNs endpoint").
    case unreachable(what: String, address: String, detail: String)
    /// The command line or an input file is wrong.
    case usage(String)
    /// The APNs endpoint answered a push with an error status (Apple's reason).
    case pushRefused(status: Int, reason: String)
    /// Something else failed on this side (a file could not be written, …).
    case local(String)

    package static let gatewayErrorStatus: Int32 = 1
    package static let usageStatus: Int32 = 2
    package static let unreachableStatus: Int32 = 3

    package var exitCode: Int32 {
        switch self {
        case .gateway, .pushRefused, .local: Self.gatewayErrorStatus
        case .usage: Self.usageStatus
        case .unreachable: Self.unreachableStatus
        }
    }

    /// The line written to standard error.
    package var description: String {
        switch self {
        case .gateway(let code, let message):
            message.isEmpty ? "error: \(code)" : "error: \(code): \(message)"
        case .unreachable(let what, let address, let detail):
            "error: cannot reach \(what) at \(address)" + (detail.isEmpty ? "" : " (\(detail))")
        case .usage(let message):
            "error: \(message)"
        case .pushRefused(let status, let reason):
            "error: APNs answered \(status)" + (reason.isEmpty ? "" : " \(reason)")
        case .local(let message):
            "error: \(message)"
        }
    }

    /// A call's error, as the gateway at `address` gave it. The transport reports a
    /// connection it could not make (or lost before the answer) as UNAVAILABLE with its
    /// own wording; the gateway's own UNAVAILABLE (a service behind it is down) is an
    /// answer like any other.
    package init(_ error: RPCError, gateway address: String) {
        if error.code == .unavailable, let detail = Self.transportFailure(error.message) {
            self = .unreachable(what: "the gateway", address: address, detail: detail)
        } else if error.code == .deadlineExceeded, error.message == "Deadline exceeded" {
            self = .unreachable(what: "the gateway", address: address, detail: "no answer in time")
        } else {
            self = .gateway(code: error.code, message: error.message)
        }
    }

    /// The transport's words for "no connection" (RPCNIO's NIOClientTransport), reduced
    /// to the reason; nil for any other message.
    static func transportFailure(_ message: String) -> String? {
        if message.hasPrefix("Cannot connect to ") {
            // "Cannot connect to host:port: <reason>"
            let rest = message.dropFirst("Cannot connect to ".count)
            guard let range = rest.firstRange(of: ": ") else { return "connection failed" }
            return plainReason(String(rest[range.upperBound...]))
        }
        switch message {
        case "The connection closed": return "the connection closed before the answer"
        case "The connection was not set up": return "the connection was not set up"
        case "The client is shut down": return "the client is shut down"
        default: return nil
        }
    }

    /// NIO's connection errors in a few words ("connection refused") when one of the usual
    /// reasons is in there; otherwise as given.
    static func plainReason(_ detail: String) -> String {
        let lower = detail.lowercased()
        for reason in [
            "connection refused", "connection reset", "no route to host", "network is unreachable",
            "host is unreachable", "name or service not known", "temporary failure in name resolution",
        ] where lower.contains(reason) {
            return reason
        }
        if lower.contains("timed out") || lower.contains("timeout") { return "connection timed out" }
        if lower.contains("could not resolve") || lower.contains("unknown host") { return "unknown host" }
        return detail
    }
}
