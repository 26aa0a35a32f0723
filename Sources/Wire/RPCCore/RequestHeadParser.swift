/// Reads a request's header fields one at a time, as the HTTP/2 library hands them over,
/// and decides whether the request is a gRPC call we can take.
///
/// Invariants: `size` is the RFC 9113 header list size of every field seen so far; once it
/// passes `maxHeaderListSize` no further field is kept and the verdict is
/// RESOURCE_EXHAUSTED. The first rejection seen wins (it is the most specific).
public struct RequestHeadParser: Sendable {
    public let maxHeaderListSize: Int
    public private(set) var size = 0
    private var path: String?
    private var method: Method = .missing
    private var contentType: ContentType = .missing
    private var timeout: Duration?
    private var metadata = Metadata()
    private var rejection: RequestRejection?

    private enum Method { case missing, post, head, other }
    private enum ContentType { case missing, grpc, other }

    public init(maxHeaderListSize: Int) {
        self.maxHeaderListSize = maxHeaderListSize
    }

    /// Forgets every field, for the next header block.
    public mutating func reset() {
        size = 0
        path = nil
        method = .missing
        contentType = .missing
        timeout = nil
        if !metadata.isEmpty { metadata = Metadata() }
        rejection = nil
    }

    /// - Parameter cache: where repeated names and values can be found without allocating.
    public mutating func add(
        name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, cache: HeaderStringCache? = nil
    ) {
        size += HeaderListSize.fieldSize(nameCount: name.count, valueCount: value.count)
        if size > maxHeaderListSize {
            reject(
                RequestRejection(
                    status: Status(
                        code: .resourceExhausted,
                        message: "Request header list larger than \(maxHeaderListSize) bytes")))
            return
        }
        if name.first == UInt8(ascii: ":") {
            if HeaderBytes.equals(name, ":path") {
                path = HeaderBytes.string(value, cache)
            } else if HeaderBytes.equals(name, ":method") {
                method = HeaderBytes.equals(value, "POST") ? .post : HeaderBytes.equals(value, "HEAD") ? .head : .other
            }
            return  // :scheme and :authority are not metadata
        }
        switch name.count {
        case 2 where HeaderBytes.equals(name, "te"): return
        case 12 where HeaderBytes.equals(name, "content-type"):
            contentType = HeaderBytes.isGRPCContentType(value) ? .grpc : .other
            return
        case 12 where HeaderBytes.equals(name, "grpc-timeout"):
            if let parsed = GRPCTimeout.parse(value) {
                timeout = parsed
            } else {
                reject(
                    RequestRejection(
                        status: Status(
                            code: .internal, message: "Malformed grpc-timeout: \(HeaderBytes.string(value))")))
            }
            return
        case 13 where HeaderBytes.equals(name, "grpc-encoding"):
            if !HeaderBytes.equals(value, "identity") {
                reject(
                    RequestRejection(
                        status: Status(
                            code: .unimplemented,
                            message: "Message encoding \(HeaderBytes.string(value)) is not supported"),
                        advertiseAcceptedEncodings: true))
            }
            return
        case 14 where HeaderBytes.equals(name, "content-length"): return
        case 20 where HeaderBytes.equals(name, "grpc-accept-encoding"): return
        default: break
        }
        if !HeaderBytes.addMetadata(name: name, value: value, to: &metadata, cache: cache) {
            reject(
                RequestRejection(
                    status: Status(
                        code: .internal, message: "Invalid base64 in \(HeaderBytes.string(name))")))
        }
    }

    /// Array-based entry point, for tests and the in-process transport.
    public mutating func add(name: String, value: String) {
        var name = name, value = value
        name.withUTF8 { n in
            value.withUTF8 { v in add(name: UnsafeRawBufferPointer(n), value: UnsafeRawBufferPointer(v)) }
        }
    }

    /// The verdict once the header block is complete. With `json` routes, a request that is
    /// not gRPC (any other content type, or none) whose path is under the routes' prefix is
    /// an HTTP/JSON call (see `finishJSON`).
    public func finish(json routes: JSONRoutes? = nil) -> Result<RequestHead, RequestRejection> {
        if contentType != .grpc, let routes, let path, routes.claims(path) { return finishJSON(routes) }
        if size > maxHeaderListSize, let rejection { return .failure(rejection) }
        // Not-gRPC answers take precedence: a non-gRPC client cannot read a gRPC status.
        if method != .post {
            return .failure(
                RequestRejection(
                    httpStatus: 405, status: Status(code: .internal, message: "gRPC requires POST")))
        }
        if contentType != .grpc {
            return .failure(
                RequestRejection(
                    httpStatus: 415,
                    status: Status(code: .internal, message: "Content-Type is not application/grpc")))
        }
        if let rejection { return .failure(rejection) }
        guard let path else {
            return .failure(RequestRejection(status: Status(code: .internal, message: "Missing :path")))
        }
        return .success(RequestHead(path: path, metadata: metadata, timeout: timeout))
    }

    /// The verdict for an HTTP/JSON request (every request on an HTTP/1.1 connection, and
    /// the JSON ones on HTTP/2): a call of the method its route names, with the JSON format,
    /// or a JSON answer: 404 for a path that is no route, 405 for a method other than POST,
    /// 431 for too many header bytes, 400 for a malformed `grpc-timeout` or `-bin` value.
    public func finishJSON(_ routes: JSONRoutes) -> Result<RequestHead, RequestRejection> {
        func refuse(_ httpStatus: Int, _ code: StatusCode, _ message: String) -> Result<RequestHead, RequestRejection> {
            .failure(
                RequestRejection(httpStatus: httpStatus, status: Status(code: code, message: message), format: .json))
        }
        if size > maxHeaderListSize {
            return refuse(431, .resourceExhausted, "Request header list larger than \(maxHeaderListSize) bytes")
        }
        guard let path else { return refuse(400, .invalidArgument, "Missing :path") }
        var metadata = self.metadata
        var resolved = routes.resolve(path)
        // `/v1/devices/{id}/<route>`: the route, for that device (`DeviceScope`).
        if resolved == nil, let scoped = DeviceScope.splitJSONPath(path), let method = routes.resolve(scoped.route) {
            if let problem = DeviceScope.problem(with: scoped.device, field: path) {
                return refuse(400, .invalidArgument, problem)
            }
            metadata.removeAll(forKey: DeviceScope.metadataKey)
            metadata.addString(scoped.device, forKey: DeviceScope.metadataKey)
            resolved = method
        }
        guard let method = resolved else {
            return refuse(404, .notFound, "No such route: \(path) (routes are POST /v1/<resource>/<verb>)")
        }
        guard self.method == .post else {
            var refused = RequestRejection(
                httpStatus: 405, status: Status(code: .unimplemented, message: "\(path) takes POST"), format: .json)
            refused.headersOnly = self.method == .head  // a response to HEAD has no body
            return .failure(refused)
        }
        if let rejection { return refuse(400, .invalidArgument, rejection.status.message) }
        return .success(RequestHead(path: method, metadata: metadata, timeout: timeout, format: .json))
    }

    private mutating func reject(_ rejection: RequestRejection) {
        if self.rejection == nil { self.rejection = rejection }
    }
}
