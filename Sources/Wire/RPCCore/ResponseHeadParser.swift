/// Reads the header fields of a response header block or trailer block on the client and
/// turns them into what the call sees: initial metadata, or the final status.
///
/// Invariants: a `grpc-status` that arrived is always the status used (the HTTP status
/// mapping applies only without it); fields past `maxHeaderListSize` are not kept.
public struct ResponseHeadParser: Sendable {
    public enum Block: Sendable { case headers, trailers }

    public enum Verdict: Sendable, Hashable {
        /// Initial metadata of a call that goes on.
        case metadata(Metadata)
        /// The call is over: trailers, trailers-only, or a response we cannot use.
        case status(Status, Metadata)
        /// A 1xx response: skip it, the real headers follow.
        case informational
    }

    public let block: Block
    public let maxHeaderListSize: Int
    private var size = 0
    private var httpStatus: Int?
    private var grpcStatus: Int?
    private var grpcMessage: String?
    private var isGRPCContentType = false
    private var metadata = Metadata()
    private var malformed: String?

    public init(block: Block, maxHeaderListSize: Int) {
        self.block = block
        self.maxHeaderListSize = maxHeaderListSize
    }

    public mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        size += HeaderListSize.fieldSize(nameCount: name.count, valueCount: value.count)
        if size > maxHeaderListSize {
            malformed = malformed ?? "Response header list larger than \(maxHeaderListSize) bytes"
            return
        }
        if name.first == UInt8(ascii: ":") {
            if HeaderBytes.equals(name, ":status") { httpStatus = HeaderBytes.parseStatusCode(value) }
            return
        }
        if HeaderBytes.equals(name, "grpc-status") {
            grpcStatus = HeaderBytes.parseStatusCode(value) ?? StatusCode.unknown.rawValue
        } else if HeaderBytes.equals(name, "grpc-message") {
            grpcMessage = PercentEncoding.decode(value)
        } else if HeaderBytes.equals(name, "content-type") {
            isGRPCContentType = HeaderBytes.isGRPCContentType(value)
        } else if HeaderBytes.equals(name, "grpc-encoding") || HeaderBytes.equals(name, "grpc-accept-encoding")
            || HeaderBytes.equals(name, "content-length")
        {
            // Compressed messages are caught by the deframer's flag check.
        } else if !HeaderBytes.addMetadata(name: name, value: value, to: &metadata) {
            malformed = malformed ?? "Invalid base64 in \(HeaderBytes.string(name))"
        }
    }

    public mutating func add(name: String, value: String) {
        var name = name, value = value
        name.withUTF8 { n in
            value.withUTF8 { v in add(name: UnsafeRawBufferPointer(n), value: UnsafeRawBufferPointer(v)) }
        }
    }

    /// The verdict for the block; `endStream` is true when the block ended the stream.
    public func finish(endStream: Bool) -> Verdict {
        if let grpcStatus, block == .trailers || endStream || httpStatus != 200 {
            return .status(Status(code: StatusCode(wireValue: grpcStatus), message: grpcMessage ?? ""), metadata)
        }
        if let malformed { return .status(Status(code: .internal, message: malformed), metadata) }
        switch block {
        case .trailers:
            return .status(Status(code: .unknown, message: "Trailers without grpc-status"), metadata)
        case .headers:
            guard let httpStatus else {
                return .status(Status(code: .internal, message: "Response without :status"), metadata)
            }
            if (100..<200).contains(httpStatus) { return .informational }
            if httpStatus != 200 { return .status(HTTP2ErrorMapping.status(forHTTPStatus: httpStatus), metadata) }
            if endStream {
                return .status(Status(code: .unknown, message: "Response ended without grpc-status"), metadata)
            }
            if !isGRPCContentType {
                return .status(
                    Status(code: .internal, message: "Response Content-Type is not application/grpc"), metadata)
            }
            return .metadata(metadata)
        }
    }
}
