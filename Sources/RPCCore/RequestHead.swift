/// What a server knows about a call once its request headers have arrived.
public struct RequestHead: Sendable {
    /// The `:path`, e.g. `/pkg.Service/Method`.
    public var path: String
    /// Custom metadata (everything that is not a pseudo-header or a gRPC transport header).
    public var metadata: Metadata
    /// From `grpc-timeout`, if the client sent one.
    public var timeout: Duration?

    public init(path: String, metadata: Metadata = Metadata(), timeout: Duration? = nil) {
        self.path = path
        self.metadata = metadata
        self.timeout = timeout
    }
}

/// Why a request was refused before any handler ran, and how to answer it.
public struct RequestRejection: Sendable, Hashable, Error {
    /// 200 for a gRPC answer (trailers-only); 405/415 for requests that are not gRPC.
    public var httpStatus: Int
    public var status: Status
    /// Add `grpc-accept-encoding: identity` to the answer (unsupported message encoding).
    public var advertiseAcceptedEncodings: Bool

    public init(httpStatus: Int = 200, status: Status, advertiseAcceptedEncodings: Bool = false) {
        self.httpStatus = httpStatus
        self.status = status
        self.advertiseAcceptedEncodings = advertiseAcceptedEncodings
    }
}
