/// What a server knows about a call once its request headers have arrived.
public struct RequestHead: Sendable {
    /// The `:path`, e.g. `/pkg.Service/Method`.
    public var path: String
    /// Custom metadata (everything that is not a pseudo-header or a gRPC transport header).
    public var metadata: Metadata
    /// From `grpc-timeout`, if the client sent one.
    public var timeout: Duration?
    /// How the call's messages are encoded: `.json` for a request that came as HTTP/JSON
    /// (`path` is then the gRPC path its route resolved to).
    public var format: MessageFormat

    public init(
        path: String, metadata: Metadata = Metadata(), timeout: Duration? = nil, format: MessageFormat = .protobuf
    ) {
        self.path = path
        self.metadata = metadata
        self.timeout = timeout
        self.format = format
    }
}

/// Why a request was refused before any handler ran, and how to answer it.
public struct RequestRejection: Sendable, Hashable, Error {
    /// 200 for a gRPC answer (trailers-only); 405/415 for requests that are not gRPC. For a
    /// JSON answer, the HTTP status (200: the one `status.code` maps to).
    public var httpStatus: Int
    public var status: Status
    /// Add `grpc-accept-encoding: identity` to the answer (unsupported message encoding).
    public var advertiseAcceptedEncodings: Bool
    /// `.json`: answered as HTTP/JSON (the status as a JSON body), not as gRPC.
    public var format: MessageFormat
    /// JSON: answer with the header fields only (a response to HEAD has no body).
    public var headersOnly = false

    public init(
        httpStatus: Int = 200, status: Status, advertiseAcceptedEncodings: Bool = false,
        format: MessageFormat = .protobuf
    ) {
        self.httpStatus = httpStatus
        self.status = status
        self.advertiseAcceptedEncodings = advertiseAcceptedEncodings
        self.format = format
    }

    /// The HTTP status of this rejection answered as JSON.
    public var jsonHTTPStatus: Int { httpStatus == 200 ? status.code.httpStatus : httpStatus }
}
