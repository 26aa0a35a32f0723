#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import Logging
package import RPCCore
package import ServiceKit
import Synchronization

/// The devices of one gateway beside the default one: each a `GatewayServer` of its own in
/// `<data-dir>/devices/<id>/`, over the default's connections (`Upstreams.forDevice`), its
/// followers running while it is open. A device exists once `Devices.Create` made its
/// folder (`DevicesHandler.exists`).
package final class DeviceGateways: Sendable {
    package let table: DeviceTable
    package let root: URL
    private let servers: Servers

    /// The open devices' servers.
    private final class Servers: Sendable {
        let map = Mutex<[String: GatewayServer]>([:])
    }

    /// `open` makes a device's server in its folder, with its upstreams and logger.
    package init(
        root: URL, limit: Int, upstreams: Upstreams, logger: Logger,
        open: @escaping @Sendable (URL, Upstreams, Logger) throws -> GatewayServer
    ) {
        self.root = root
        let servers = Servers()
        self.servers = servers
        table = DeviceTable(root: root, limit: limit) { device throws in
            guard DevicesHandler.exists(device, root: root) else {
                throw RPCError(code: .notFound, message: "no device \(device): Devices.Create it first")
            }
            var deviceLogger = logger
            deviceLogger[metadataKey: "device"] = "\(device)"
            let served = try open(root.appendingPathComponent(device), upstreams.forDevice(device), deviceLogger)
            servers.map.withLock { $0[device] = served }
            let following = Task { try? await served.followers.run() }
            return .init(services: served.handlers, jsonServices: served.handlers) {
                // Only this server's entry: the device may have been opened anew meanwhile.
                servers.map.withLock { if $0[device]?.gateway === served.gateway { $0[device] = nil } }
                served.endStreams()
                following.cancel()
                await served.close()
            }
        }
    }

    /// `device`'s gateway, opened now if it is not yet.
    package func gateway(_ device: String) async throws(RPCError) -> Gateway {
        _ = try await table.router(for: device)
        guard let server = servers.map.withLock({ $0[device] }) else {
            throw RPCError(code: .unavailable, message: "device \(device) closed meanwhile; try again")
        }
        return server.gateway
    }

    /// Ends every open device's `Events.Follow` streams (shutdown begins).
    package func endStreams() {
        for server in servers.map.withLock({ Array($0.values) }) { server.endStreams() }
    }

    /// Opens every device there is (at start: their followers keep their screens current);
    /// one that fails is logged and left for its next call.
    package func openAll(logger: Logger) async {
        let root = self.root
        await table.openAll(where: { DevicesHandler.exists($0, root: root) }, logger: logger)
    }
}
