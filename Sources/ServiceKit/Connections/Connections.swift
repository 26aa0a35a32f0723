public import RPCCore
import RPCNIO
import Synchronization

/// One gRPC connection per endpoint ("host:port"), made on first use and kept (the
/// transport reconnects by itself): the apps' IntentHandlers and glimpse-timeline.
/// `shutdown()` closes them all.
public final class Connections: Sendable {
    private struct Entry: Sendable {
        var client: GRPCClient
        var running: Task<Void, Never>
    }

    private let clients = Mutex<[String: Entry]>([:])
    private let closed = Mutex(false)
    private let config: NIOClientConfig

    /// `maxReceiveMessageSize`: the largest answer a call takes (4 MiB, gRPC's default; a
    /// pool that carries timelines takes `ContentLimits.timelineMessageBytes`).
    public init(maxReceiveMessageSize: Int = 4 * 1024 * 1024) {
        config = NIOClientConfig(maxReceiveMessageSize: maxReceiveMessageSize)
    }

    /// The connection to `endpoint`; nil when it is not `host:port` or the pool is closed.
    public func client(for endpoint: String) -> GRPCClient? {
        guard let colon = endpoint.lastIndex(of: ":"), let port = Int(endpoint[endpoint.index(after: colon)...]),
              (1...65535).contains(port) else { return nil }
        var host = Substring(endpoint[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }  // [::1]:port
        let hostName = String(host)
        guard !closed.withLock({ $0 }) else { return nil }
        return clients.withLock { clients -> GRPCClient in
            if let entry = clients[endpoint] { return entry.client }
            let client = GRPCClient(transport: NIOClientTransport(host: hostName, port: port, config: config))
            // The connection's lifetime is the pool's, which `shutdown()` ends.
            let running = Task { _ = try? await client.run() }
            clients[endpoint] = Entry(client: client, running: running)
            return client
        }
    }

    /// Forgets the connection to `endpoint` (closing it): the next `client(for:)` makes a
    /// new one. For a peer that was not up when first called, whose connection stays failed.
    public func reset(_ endpoint: String) {
        let entry = clients.withLock { $0.removeValue(forKey: endpoint) }
        entry?.client.beginGracefulShutdown()
    }

    public func shutdown() async {
        closed.withLock { $0 = true }
        let entries = clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for entry in entries { entry.client.beginGracefulShutdown() }
        for entry in entries { await entry.running.value }
    }
}
