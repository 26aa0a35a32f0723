public import GlimpseMessages
public import RPCCore
import GlimpseJSON

/// gRPC's richer error model: a failure with a typed reason carries, beside grpc-status and
/// grpc-message, the trailer `grpc-status-details-bin` holding a google.rpc.Status whose
/// details hold one google.rpc.ErrorInfo (Proto/glimpse/rpc/v1/status.proto). Stock clients
/// read it with their own types (grpcio-status: `rpc_status.from_call(call)`); the HTTP/JSON
/// face renders it under `"details"` (`ErrorDetails.json(from:)`).
extension RPCError {
    /// The trailer that carries a google.rpc.Status.
    public static let statusDetailsKey = "grpc-status-details-bin"

    /// A failure whose reason a program can switch on: `reason` an enum value's name without
    /// its prefix, `domain` the enum, `metadata` the particulars. The Status in the trailer
    /// repeats `code` and `message`, as gRPC's clients check.
    public init(code: StatusCode, message: String, reason: String, domain: String, metadata: [String: String] = [:]) {
        self.init(code: code, message: message)
        let info = GlimpseRpcV1.ErrorInfo(reason: reason, domain: domain, metadata: metadata)
        guard let value = try? info.serializedBytes() else { return }
        let status = GlimpseRpcV1.Status(
            code: Int32(code.rawValue), message: message,
            details: [GlimpseRpcV1.AnyDetail(typeUrl: ErrorDetails.errorInfoTypeURL, value: value)])
        guard let bytes = try? status.serializedBytes() else { return }
        self.metadata.addBinary(bytes, forKey: Self.statusDetailsKey)
    }

    /// A failure whose reason is a value of one of Glimpse's enums (a refused tap's
    /// glimpse.intent.v1.Refusal): the ErrorInfo's reason is the value's name without the
    /// enum's prefix (REFUSAL_DEVICE_LOCKED: DEVICE_LOCKED), its domain the enum's full name.
    package init<Reason: _ProtoJSONEnum>(
        code: StatusCode, message: String, reason: Reason, metadata: [String: String] = [:]
    ) {
        let names = Reason._protoJSONNames
        let name = names.name(of: reason.rawValue) ?? String(reason.rawValue)
        let prefix = ErrorDetails.valuePrefix(of: names.enumName)
        let short = name.hasPrefix(prefix) && name.count > prefix.count ? String(name.dropFirst(prefix.count)) : name
        self.init(code: code, message: message, reason: short, domain: names.enumName, metadata: metadata)
    }

    /// The error's reason as a value of `Reason`, when its ErrorInfo names that enum.
    package func reason<Reason: _ProtoJSONEnum>(as type: Reason.Type) -> Reason? {
        let names = Reason._protoJSONNames
        guard let info = errorInfo, info.domain == names.enumName else { return nil }
        let number =
            names.number(named: ErrorDetails.valuePrefix(of: names.enumName) + info.reason)
            ?? names.number(named: info.reason)
        return number.map(Reason.init(rawValue:))
    }

    /// The ErrorInfo the error's trailers carry, if any (nil when absent or unreadable).
    public var errorInfo: GlimpseRpcV1.ErrorInfo? {
        ErrorDetails.status(in: metadata)?.details.lazy
            .filter { $0.typeUrl == ErrorDetails.errorInfoTypeURL }
            .compactMap { try? GlimpseRpcV1.ErrorInfo(serializedBytes: $0.value) }
            .first
    }

    /// The error without what its trailers say of the call that failed (a peer's trailers
    /// are not passed on as they are): code and message, and the reason if there was one.
    public var passedOn: RPCError {
        guard let info = errorInfo else { return RPCError(code: code, message: message) }
        return RPCError(code: code, message: message, reason: info.reason, domain: info.domain, metadata: info.metadata)
    }
}

/// Reading `grpc-status-details-bin`.
public enum ErrorDetails {
    /// google.rpc.ErrorInfo's name inside a google.protobuf.Any.
    public static let errorInfoTypeURL = "type.googleapis.com/google.rpc.ErrorInfo"

    /// The prefix protobuf's style gives an enum's values: `glimpse.intent.v1.Refusal` ->
    /// `REFUSAL_`.
    static func valuePrefix(of enumName: String) -> String {
        let simple = enumName.split(separator: ".").last.map(String.init) ?? enumName
        return JSONRoutes.snakeCase(simple).uppercased() + "_"
    }

    /// The google.rpc.Status in `trailers`, if one is there and reads.
    public static func status(in trailers: Metadata) -> GlimpseRpcV1.Status? {
        guard let bytes = trailers[binaryValues: RPCError.statusDetailsKey].first else { return nil }
        return try? GlimpseRpcV1.Status(serializedBytes: bytes)
    }

    /// The details of the Status in `trailers` as proto3 JSON: an array of Any values in their
    /// canonical form (`"@type"`, then the message's fields), for the `"details"` of an HTTP/JSON
    /// error. A detail of a type Glimpse does not know shows its `"@type"` and its bytes
    /// (`"value"`, base64). nil when the trailers carry no details.
    public static func json(from trailers: Metadata) -> [UInt8]? {
        guard let status = status(in: trailers), !status.details.isEmpty else { return nil }
        let details: [JSONValue] = status.details.map { detail in
            var members = [JSONMember("@type", .string(detail.typeUrl))]
            if detail.typeUrl == errorInfoTypeURL,
                let info = try? GlimpseRpcV1.ErrorInfo(serializedBytes: detail.value),
                case .object(let fields) = info.protoJSONValue()
            {
                members += fields
            } else {
                members.append(JSONMember("value", .string(Base64.encode(detail.value))))
            }
            return .object(members)
        }
        return JSONValue.array(details).serialized()
    }
}
