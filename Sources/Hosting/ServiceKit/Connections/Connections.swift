package import RPCCore
import RPCNIO
import Synchronization

/// One gRPC connection per address, made on first use and kept (the transport reconnects
/// by itself): the apps' IntentHandlers and providers, and the peer services.
/// `shutdown()` closes them all.
package final class Connections: Sendable {
    private struct Entry: Sendable {
        var client: GRPCClient
        var running: Task<Void, Never>
    }

    /// How a connection to an address is made: HTTP/2 over a socket (`.sockets`), or, in a
    /// test that wires services in one process, an in-process transport per address.
    package struct Transports: Sendable {
        let make: @Sendable (ServiceAddress, _ maxReceiveMessageSize: Int) -> any ClientTransport

        package init(_ make: @escaping @Sendable (ServiceAddress, _ maxReceiveMessageSize: Int) -> any ClientTransport)
        {
            self.make = make
        }

        /// HTTP/2 over TCP (NIO), as deployed.
        package static let sockets = Transports { address, maxReceiveMessageSize in
            NIOClientTransport(
                host: address.host, port: address.port,
                config: NIOClientConfig(maxReceiveMessageSize: maxReceiveMessageSize))
        }

        /// The in-process transports of `servers` by address (no socket, the same call
        /// semantics); any other address goes to `otherwise`.
        package static func inProcess(
            _ servers: [ServiceAddress: InProcessTransport.Client], otherwise: Transports = .sockets
        ) -> Transports {
            Transports { address, maxReceiveMessageSize in
                servers[address] ?? otherwise.make(address, maxReceiveMessageSize)
            }
        }
    }

    private let clients = Mutex<[ServiceAddress: Entry]>([:])
    private let closed = Mutex(false)
    private let maxReceiveMessageSize: Int
    private let transports: Transports
    /// The pool whose connections this one uses (`init(sharing:)`), or nil when it has its own.
    private let parent: Connections?

    /// `maxReceiveMessageSize`: the largest answer a call takes (4 MiB, gRPC's default; a
    /// pool that carries timelines takes `ContentLimits.timelineMessageBytes`).
    package init(maxReceiveMessageSize: Int = 4 * 1024 * 1024, transports: Transports = .sockets) {
        self.maxReceiveMessageSize = maxReceiveMessageSize
        self.transports = transports
        parent = nil
    }

    /// A pool that uses `parent`'s connections and leaves them open when it shuts down:
    /// every device of a process (`DeviceTable`) calls a provider on one connection, not one
    /// per device, and closing a device closes none of the others' calls.
    package init(sharing parent: Connections) {
        maxReceiveMessageSize = parent.maxReceiveMessageSize
        transports = parent.transports
        self.parent = parent
    }

    /// The connection to `address`; nil when the pool is closed.
    package func client(for address: ServiceAddress) -> GRPCClient? {
        guard !closed.withLock({ $0 }) else { return nil }
        if let parent { return parent.client(for: address) }
        return clients.withLock { clients -> GRPCClient in
            if let entry = clients[address] { return entry.client }
            let client = GRPCClient(transport: transports.make(address, maxReceiveMessageSize))
            // The connection's lifetime is the pool's, which `shutdown()` ends.
            let running = Task { _ = try? await client.run() }
            clients[address] = Entry(client: client, running: running)
            return client
        }
    }

    /// The connection to an app's endpoint as its manifest writes it (`host:port`, read by
    /// `ServiceAddress(parsing:)`); nil when it is no such address or the pool is closed.
    package func client(for endpoint: String) -> GRPCClient? {
        ServiceAddress(parsing: endpoint).flatMap { client(for: $0) }
    }

    /// Forgets the connection to `address` (closing it): the next `client(for:)` makes a
    /// new one. For a peer that was not up when first called, whose connection stays failed.
    package func reset(_ address: ServiceAddress) {
        if let parent { return parent.reset(address) }
        let entry = clients.withLock { $0.removeValue(forKey: address) }
        entry?.client.beginGracefulShutdown()
    }

    package func shutdown() async {
        closed.withLock { $0 = true }
        let entries = clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for entry in entries { entry.client.beginGracefulShutdown() }
        for entry in entries { await entry.running.value }
    }
}
