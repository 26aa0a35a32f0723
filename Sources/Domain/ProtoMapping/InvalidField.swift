package import RPCCore

/// A request field that does not hold what the contract says: the answer is
/// INVALID_ARGUMENT with a message that names the field, never a crash.
package struct InvalidField: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field's path in the request, as the .proto names it (`placement.family`).
    package var field: String
    package var reason: String

    package init(_ field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    package var description: String { "\(field): \(reason)" }

    /// The gRPC status a handler answers with.
    package var rpcError: RPCError { RPCError(code: .invalidArgument, message: description) }
}
