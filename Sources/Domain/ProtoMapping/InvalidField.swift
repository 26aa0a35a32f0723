public import RPCCore

/// A request field that does not hold what the contract says: the answer is
/// INVALID_ARGUMENT with a message that names the field, never a crash.
public struct InvalidField: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field's path in the request, as the .proto names it (`placement.family`).
    public var field: String
    public var reason: String

    public init(_ field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }

    /// The gRPC status a handler answers with.
    public var rpcError: RPCError { RPCError(code: .invalidArgument, message: description) }
}
