#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import EngineHosting
package import GlimpseMessages
import GlimpseRPC
import ProtoMapping
package import RPCCore
import ServiceKit

/// `Devices`: the devices of one gateway beside the default one (`DeviceGateways`). A device
/// is a folder under `<data-dir>/devices/` (its gateway store; `created` says when it was
/// made). Creating one applies its first settings; deleting one closes it here, deletes it at
/// every service, then deletes its folder.
package struct DevicesHandler: GlimpseGatewayV1.Devices.Handler {
    let devices: DeviceGateways
    var table: DeviceTable { devices.table }
    /// The default device's: the services' addresses, and its clock for `created_at`.
    let gateway: Gateway
    let model: String

    package init(devices: DeviceGateways, gateway: Gateway, model: String) {
        self.devices = devices
        self.gateway = gateway
        self.model = model
    }

    /// The file whose presence makes a folder a device, holding when it was created.
    static let marker = "created"
    /// What `marker` becomes while the device is deleted.
    static let deletingMarker = "deleting"

    /// Whether `device` was created (and not deleted) under `root`.
    package static func exists(_ device: String, root: URL) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("\(device)/\(marker)").path)
    }

    package func create(
        request: ServerRequest<GlimpseGatewayV1.CreateDeviceRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.DeviceInfo> {
        try Caller.requireDevice(context.requestMetadata, "creating a device")
        let device = try DeviceScope.requireNamed(request.message.deviceId, field: "device_id")
        guard let directory = table.directory(of: device) else {
            throw RPCError(
                code: .failedPrecondition, message: "this gateway keeps no data directory: it has no devices")
        }
        let marker = directory.appendingPathComponent(Self.marker)
        guard !FileManager.default.fileExists(atPath: marker.path) else {
            throw RPCError(code: .alreadyExists, message: "device \(device) exists (Devices.Delete it first)")
        }
        guard !FileManager.default.fileExists(atPath: directory.appendingPathComponent(Self.deletingMarker).path) else {
            throw RPCError(code: .aborted, message: "device \(device) is being deleted; create it once that is done")
        }
        guard await devices.reserve(device, limit: table.limit) else {
            throw RPCError(
                code: .resourceExhausted,
                message: "this gateway holds at most \(table.limit) devices (--max-devices); delete one first")
        }
        let shards = devices.shards
        let shard: ShardMap.Shard
        if request.message.shard.isEmpty {
            shard = shards.shard(forNew: device)
        } else if shards.isSharded, let named = shards.shard(named: request.message.shard) {
            shard = named
        } else {
            devices.release(device)
            throw RPCError(
                code: .invalidArgument,
                message: shards.isSharded
                    ? "shard: no shard \"\(request.message.shard)\" (this gateway's --shards names \(shards.names))"
                    : "shard: this gateway has no shards (--shards)")
        }
        let created = gateway.now()
        do {
            try PrivateStore.makeDirectory(directory.path)
        } catch {
            devices.release(device)
            throw RPCError(code: .internal, message: "device \(device): its folder could not be made: \(error)")
        }
        do {
            // Not overwriting: of two Creates of one id at once, one makes it. Its second
            // line names its shard, so the marker says it all at once.
            let contents = String(created.timeIntervalSince1970) + (shard.name.isEmpty ? "" : "\n" + shard.name)
            try Data(contents.utf8).write(to: marker, options: .withoutOverwriting)
        } catch {
            throw RPCError(code: .alreadyExists, message: "device \(device) exists (Devices.Delete it first)")
        }
        var answer = info(device, created: created, shard: shard.name)
        // Its first settings, as Device.UpdateSettings takes them, at every service. All or
        // nothing: a device whose settings a service refused is deleted again.
        let settings = request.message.settings ?? GlimpseGatewayV1.UpdateSettingsRequest()
        do {
            answer.settings = try await devices.gateway(device).updateSettings(settings)
        } catch {
            _ = try? await deleteEverywhere(device)
            throw error
        }
        return ServerResponse(message: answer)
    }

    package func delete(
        request: ServerRequest<GlimpseGatewayV1.DeleteDeviceRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.DeleteDeviceResponse> {
        try Caller.requireDevice(context.requestMetadata, "deleting a device")
        let device = try DeviceScope.requireNamed(request.message.deviceId, field: "device_id")
        return ServerResponse(message: .init(existed: try await deleteEverywhere(device)))
    }

    /// Deletes `device` here and at every service; false when there is no such device.
    /// First its `created` marker becomes `deleting`, so nothing opens it here again (and a
    /// retry after a failure finds it); then its server closes, its followers with it; then
    /// the services delete it, the callers before those they call (glimpse-intent and
    /// -activity ask glimpse-timeline for reloads, glimpse-timeline tells glimpse-asset what
    /// it shows), so none makes it again; its folder goes last.
    private func deleteEverywhere(_ device: String) async throws(RPCError) -> Bool {
        guard let directory = table.directory(of: device) else { return false }
        let marker = directory.appendingPathComponent(Self.marker)
        let deleting = directory.appendingPathComponent(Self.deletingMarker)
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: marker.path) {
            do { try fileManager.moveItem(at: marker, to: deleting) } catch {
                throw RPCError(code: .internal, message: "device \(device): could not be marked deleted: \(error)")
            }
        } else if !fileManager.fileExists(atPath: deleting.path) {
            return false
        }
        await table.close(device)
        let upstreams = try devices.upstreams(for: device)
        for service in [Upstreams.Service.intent, .activity, .timeline, .asset] {
            _ = try await upstreams.call(service) { options in
                try await upstreams.devices(service).delete(
                    ClientRequest(message: .init(deviceId: device)), options: options)
            }
        }
        do {
            try await table.delete(device)
        } catch {
            throw RPCError(code: .internal, message: "device \(device): its folder could not be deleted: \(error)")
        }
        devices.release(device)
        return true
    }

    package func list(
        request: ServerRequest<GlimpseGatewayV1.ListDevicesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseGatewayV1.ListDevicesResponse> {
        try Caller.requireDevice(context.requestMetadata, "listing devices")
        var devices = [
            GlimpseGatewayV1.DeviceInfo(
                deviceId: DeviceScope.defaultID, model: model, shard: self.devices.shards.first.name)
        ]
        if let root = table.root {
            for device in await table.list() where Self.exists(device, root: root) {
                let marker = Self.marker(device, root: root)
                let shard = self.devices.shards.reportedName(recorded: marker.shard)
                devices.append(info(device, created: marker.created, shard: shard))
            }
        }
        return ServerResponse(message: .init(devices: devices))
    }

    private func info(_ device: String, created: Date?, shard: String) -> GlimpseGatewayV1.DeviceInfo {
        GlimpseGatewayV1.DeviceInfo(
            deviceId: device, model: model, createdAt: created.map(GoogleProtobuf.Timestamp.init), shard: shard)
    }

    /// What `device`'s marker says: when it was created, and the shard it lives on (empty
    /// when the gateway has none, or for a device made before it had).
    static func marker(_ device: String, root: URL) -> (created: Date?, shard: String) {
        let folder = root.appendingPathComponent(device)
        guard
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent(marker).path)
                ?? FileManager.default.contents(atPath: folder.appendingPathComponent(deletingMarker).path)
        else { return (nil, "") }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let created = lines.first.flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) }
        return (created, lines.count > 1 ? String(lines[1]) : "")
    }

    /// The shard `device`'s marker names (empty: none).
    package static func recordedShard(_ device: String, root: URL) -> String { marker(device, root: root).shard }

}
