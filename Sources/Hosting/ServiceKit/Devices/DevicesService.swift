package import GlimpseMessages
import GlimpseRPC
package import RPCCore

/// `glimpse.device.v1.Devices` at a service: what it holds of the devices beside the
/// default one (`DeviceTable`), and their deletion, which the gateway's `Devices.Delete`
/// asks of every service.
package struct DevicesService: GlimpseDeviceV1.Devices.Handler {
    let table: DeviceTable

    package init(table: DeviceTable) {
        self.table = table
    }

    package func delete(
        request: ServerRequest<GlimpseDeviceV1.DeleteDeviceRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseDeviceV1.DeleteDeviceResponse> {
        try Caller.requireDevice(context.requestMetadata, "deleting a device")
        let device = try DeviceScope.requireNamed(request.message.deviceId, field: "device_id")
        do {
            return ServerResponse(message: .init(existed: try await table.delete(device)))
        } catch {
            throw RPCError(code: .internal, message: "device \(device): its stored data could not be deleted: \(error)")
        }
    }

    package func list(
        request: ServerRequest<GlimpseDeviceV1.ListDevicesRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseDeviceV1.ListDevicesResponse> {
        try Caller.requireDevice(context.requestMetadata, "listing devices")
        return ServerResponse(message: .init(deviceIds: await table.list()))
    }
}
