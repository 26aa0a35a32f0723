/// How failures inside a server call become statuses.
///
/// - A handler that throws `RPCError` chooses its status and trailing metadata.
/// - A request that does not parse is INTERNAL, as grpc-core answers it (the request
///   bytes arrived intact; what failed is this server's reading of them), unless the
///   deserializer throws an `RPCStatusConvertible` (its status: the JSON one's errors are
///   INVALID_ARGUMENT, the client's text is at fault). Handlers that want INVALID_ARGUMENT
///   for bad *content* throw it themselves.
/// - Task cancellation (client reset, expired deadline) is CANCELLED; the transport has
///   usually answered already and ignores it.
/// - An error that is `RPCStatusConvertible` has its status (an engine host that can no
///   longer journal: UNAVAILABLE, see ServiceKit).
/// - Any other error is UNKNOWN, without the error's text (it may hold internals).
public enum ServerCallFailure {
    @inlinable
    static func decode<Message>(
        _ bytes: [UInt8], with deserializer: some MessageDeserializer<Message>
    ) throws -> Message {
        do {
            return try deserializer.deserialize(bytes)
        } catch let rejection as any RPCStatusConvertible {
            throw RPCError(status: rejection.rpcStatus)  // e.g. ProtoJSONError: INVALID_ARGUMENT
        } catch {
            throw RPCError(code: .internal, message: "Failed to deserialize the request: \(error)")
        }
    }

    public static func error(for error: any Error) -> RPCError {
        switch error {
        case let error as RPCError: error
        case is CancellationError: RPCError(code: .cancelled, message: "The call was cancelled")
        case let error as any RPCStatusConvertible: RPCError(status: error.rpcStatus)
        default: RPCError(code: .unknown, message: "The handler failed")
        }
    }
}
