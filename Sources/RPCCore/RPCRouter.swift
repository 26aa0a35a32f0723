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
    private var services: Set<String> = []

    public init() {}

    public init(services: [any RPCService]) {
        self.init()
        for service in services { service.registerMethods(with: &self) }
    }

    /// The methods served, by path.
    public var paths: [String] { methods.keys.sorted() }

    public func hasMethod(_ method: MethodDescriptor) -> Bool { methods[method.path] != nil }

    @usableFromInline
    mutating func register(_ descriptor: MethodDescriptor, _ method: Method) {
        precondition(methods[descriptor.path] == nil, "\(descriptor) is registered twice")
        var method = method
        method.descriptor = descriptor
        methods[descriptor.path] = method
        services.insert(descriptor.service)
    }

    /// Runs the call `stream` carries to its end.
    public func handle(_ stream: ServerStream) async {
        guard let method = methods[stream.head.path] else {
            await Self.reject(stream, Status(code: .unimplemented, message: unknownMessage(stream.head.path)))
            return
        }
        let context = ServerContext(
            method: method.descriptor, requestMetadata: stream.head.metadata,
            fixedDeadline: stream.fixedDeadline, remotePeer: stream.remotePeer)
        await method.run(stream, context)
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
