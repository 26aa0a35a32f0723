/// A client transport that adds `defaults` to every call that does not carry those keys
/// itself: one credential for a whole connection (`authorization: Device <key>`), while a
/// call that brings its own (`authorization: Bearer <app token>`) keeps it. Running and
/// shutting down go to `base`; when `base` is a pooled connection, the pool does both.
public struct DefaultMetadataTransport: ClientTransport {
    public let base: any ClientTransport
    public let defaults: Metadata

    public init(_ base: any ClientTransport, defaults: Metadata) {
        self.base = base
        self.defaults = defaults
    }

    public func openStream(_ head: ClientRequestHead) async throws -> ClientStream {
        var head = head
        let given = Set(head.metadata.map(\.key))
        for entry in defaults where !given.contains(entry.key) { head.metadata.add(entry.value, forKey: entry.key) }
        return try await base.openStream(head)
    }

    public func run() async throws { try await base.run() }

    public func beginGracefulShutdown() { base.beginGracefulShutdown() }
}

extension GRPCClient {
    /// This client's connection with `defaults` added to every call that lacks those keys.
    public func adding(_ defaults: Metadata) -> GRPCClient {
        defaults.isEmpty ? self : GRPCClient(transport: DefaultMetadataTransport(transport, defaults: defaults))
    }
}
