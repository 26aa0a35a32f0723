/// The gRPC status codes, as grpc's `doc/statuscodes.md` numbers them.
public enum StatusCode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ok = 0
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case `internal` = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16

    /// A received code outside 0...16 is UNKNOWN, as the status code document asks.
    public init(wireValue: Int) {
        self = StatusCode(rawValue: wireValue) ?? .unknown
    }

    public var description: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internal: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        }
    }
}

/// The outcome of a call: a code and a human-readable message (carried percent-encoded
/// in `grpc-message`).
public struct Status: Sendable, Hashable, CustomStringConvertible {
    public var code: StatusCode
    public var message: String

    public init(code: StatusCode, message: String = "") {
        self.code = code
        self.message = message
    }

    public static let ok = Status(code: .ok)

    public var description: String {
        message.isEmpty ? "\(code)" : "\(code): \(message)"
    }
}

/// A call that ended with a status other than OK. Handlers throw it to choose the status;
/// clients catch it. `metadata` travels as trailing metadata.
public struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: StatusCode
    public var message: String
    public var metadata: Metadata

    public init(code: StatusCode, message: String = "", metadata: Metadata = Metadata()) {
        self.code = code
        self.message = message
        self.metadata = metadata
    }

    public init(status: Status, metadata: Metadata = Metadata()) {
        self.init(code: status.code, message: status.message, metadata: metadata)
    }

    public var status: Status { Status(code: code, message: message) }

    public var description: String { "RPCError(\(status))" }
}
