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
/// `<data-dir>/devices/<id>/`, over the default's pool of connections to its shard's
/// services (`Upstreams.forDevice`, `ShardMap`), its followers running while it is open. A
/// device exists once `Devices.Create` made its folder (`DevicesHandler.exists`).
package final class DeviceGateways: Sendable {
    package let table: DeviceTable
    package let root: URL
    package let shards: ShardMap
    /// The default device's.
    private let upstreams: Upstreams
    private let servers: Servers

    /// The open devices' servers.
    private final class Servers: Sendable {
        let map = Mutex<[String: GatewayServer]>([:])
    }

    /// The devices created here, for `--max-devices`: read from the folder once, then kept
    /// as devices are created and deleted (a Create that listed the folder was O(devices)).
    private let created = Mutex<Set<String>?>(nil)

    /// `open` makes a device's server in its folder, with its upstreams and logger.
    package init(
        root: URL, limit: Int, upstreams: Upstreams, shards: ShardMap, logger: Logger,
        open: @escaping @Sendable (URL, Upstreams, Logger) throws -> GatewayServer
    ) {
        self.root = root
        self.shards = shards
        self.upstreams = upstreams
        let servers = Servers()
        self.servers = servers
        table = DeviceTable(root: root, limit: limit) { device throws in
            guard DevicesHandler.exists(device, root: root) else {
                throw RPCError(code: .notFound, message: "no device \(device): Devices.Create it first")
            }
            var deviceLogger = logger
            deviceLogger[metadataKey: "device"] = "\(device)"
            let shard = try shards.shard(of: device, recorded: DevicesHandler.recordedShard(device, root: root))
            if shards.isSharded { deviceLogger[metadataKey: "shard"] = "\(shard.name)" }
            let served = try open(
                root.appendingPathComponent(device), upstreams.forDevice(device, addresses: shard.addresses),
                deviceLogger)
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

    /// The services of `device`'s shard, whether it is open or not.
    package func upstreams(for device: String) throws(RPCError) -> Upstreams {
        let shard = try shards.shard(of: device, recorded: DevicesHandler.recordedShard(device, root: root))
        return upstreams.forDevice(device, addresses: shard.addresses)
    }

    /// Ends every open device's `Events.Follow` streams (shutdown begins).
    package func endStreams() {
        for server in servers.map.withLock({ Array($0.values) }) { server.endStreams() }
    }

    /// Counts `device` as created, unless `limit` devices are: then false.
    func reserve(_ device: String, limit: Int) async -> Bool {
        if created.withLock({ $0 == nil }) {
            let root = self.root
            let found = Set(await table.list().filter { DevicesHandler.exists($0, root: root) })
            created.withLock { if $0 == nil { $0 = found } }
        }
        return created.withLock { created in
            // In place: a copy of the set would make each Create O(devices) again.
            guard let count = created?.count, count < limit || created?.contains(device) == true else { return false }
            created?.insert(device)
            return true
        }
    }

    /// `device` is deleted, or its Create failed before it was made.
    func release(_ device: String) {
        _ = created.withLock { $0?.remove(device) }
    }

    /// Opens every device there is (at start: their followers keep their screens current);
    /// one that fails is logged and left for its next call.
    package func openAll(logger: Logger) async {
        let root = self.root
        await table.openAll(where: { DevicesHandler.exists($0, root: root) }, logger: logger)
    }
}
