/// A type that serves methods registers them with a router.
public protocol RPCService: Sendable {
    func registerMethods(with router: inout RPCRouter)
}

/// Maps `/service/method` paths to handlers; an unknown path is UNIMPLEMENTED.
public struct RPCRouter: Sendable {
    @usableFromInline
    struct Method: Sendable {
        var descriptor: MethodDescriptor
        let run: @Sendable (ServerStream, ServerContext) async -> Void

        @usableFromInline
        init(_ run: @escaping @Sendable (ServerStream, ServerContext) async -> Void) {
            self.descriptor = MethodDescriptor(service: "", method: "")
            self.run = run
        }
    }

    private var methods: [String: Method] = [:]
    /// The methods served as JSON (`format: .json`), by gRPC path.
    private var jsonMethods: [String: Method] = [:]
    private var services: Set<String> = []
    /// The HTTP routes of `jsonMethods`, for the transport.
    public private(set) var jsonRoutes = JSONRoutes()
    /// How a call of a method not served here is answered: the status this gives, or
    /// UNIMPLEMENTED when it gives nil (or is nil, the default). A standby answers the
    /// methods its active serves UNAVAILABLE, which clients retry.
    public var unservedStatus: (@Sendable (MethodDescriptor) -> Status?)?

    public init() {}

    /// - Parameter jsonServices: services also served as JSON (usually some of `services`).
    public init(services: [any RPCService], jsonServices: [any RPCJSONService] = []) {
        self.init()
        for service in services { service.registerMethods(with: &self) }
        for service in jsonServices { service.registerJSONMethods(with: &self) }
    }

    /// The methods served, by path.
    public var paths: [String] { methods.keys.sorted() }

    public func hasMethod(_ method: MethodDescriptor) -> Bool { methods[method.path] != nil }

    /// Whether `method` is served as JSON.
    public func hasJSONMethod(_ method: MethodDescriptor) -> Bool { jsonMethods[method.path] != nil }

    @usableFromInline
    mutating func register(_ descriptor: MethodDescriptor, format: MessageFormat, _ method: Method) {
        var method = method
        method.descriptor = descriptor
        switch format {
        case .protobuf:
            precondition(methods[descriptor.path] == nil, "\(descriptor) is registered twice")
            methods[descriptor.path] = method
        case .json:
            precondition(jsonMethods[descriptor.path] == nil, "\(descriptor) is registered twice as JSON")
            jsonMethods[descriptor.path] = method
            jsonRoutes.add(descriptor)
        }
        services.insert(descriptor.service)
    }

    /// Runs the call `stream` carries to its end.
    public func handle(_ stream: ServerStream) async {
        let found = stream.head.format == .protobuf ? methods[stream.head.path] : jsonMethods[stream.head.path]
        guard let method = found else {
            let status =
                MethodDescriptor(path: stream.head.path).flatMap { unservedStatus?($0) }
                ?? Status(code: .unimplemented, message: unknownMessage(stream.head.path))
            await Self.reject(stream, status)
            return
        }
        let context = ServerContext(
            method: method.descriptor, requestMetadata: stream.head.metadata,
            fixedDeadline: stream.fixedDeadline, remotePeer: stream.remotePeer)
        // Deadlines flow: the calls the handler makes get what is left of this one's.
        await CallDeadline.$current.withValue(context.deadline) {
            await method.run(stream, context)
        }
    }

    private func unknownMessage(_ path: String) -> String {
        if let descriptor = MethodDescriptor(path: path), !services.contains(descriptor.service) {
            return "Unknown service \(descriptor.service)"
        }
        return "Method not found: \(path)"
    }

    static func reject(_ stream: ServerStream, _ status: Status) async {
        stream.send(.status(status, Metadata()), flush: true)
    }
}
