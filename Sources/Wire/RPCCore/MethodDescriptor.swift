/// A method's name as gRPC routes it: `/<fully.qualified.Service>/<Method>`.
public struct MethodDescriptor: Sendable, Hashable, CustomStringConvertible {
    public var service: String
    public var method: String

    public init(service: String, method: String) {
        self.service = service
        self.method = method
    }

    /// Parses a `:path`; nil unless it is `/service/method` with both parts non-empty.
    public init?(path: String) {
        let utf8 = path.utf8
        guard utf8.first == UInt8(ascii: "/") else { return nil }
        let rest = path.dropFirst()
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let service = rest[..<slash]
        let method = rest[rest.index(after: slash)...]
        guard !service.isEmpty, !method.isEmpty, !method.contains("/") else { return nil }
        self.init(service: String(service), method: String(method))
    }

    public var path: String { "/\(service)/\(method)" }

    public var description: String { path }
}
