#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseMessages
import GlimpseRPC
package import Logging
package import RPCCore

/// glimpse-gateway assembled: the device store under the data directory, the core, the
/// handlers of every API service, and the followers that keep the screen current.
package struct GatewayServer: Sendable {
    package let gateway: Gateway
    package let followers: Followers
    package let handlers: [any RPCJSONService]

    /// The full names of the services the gateway serves (health, reflection).
    package static let serviceNames = [
        GlimpseGatewayV1.Apps.name, GlimpseGatewayV1.Widgets.name, GlimpseGatewayV1.Device.name,
        GlimpseGatewayV1.Clock.name, GlimpseGatewayV1.Activities.name, GlimpseGatewayV1.Events.name,
        GlimpseGatewayV1.WidgetCenter.name, GlimpseGatewayV1.ActivityKit.name, GlimpseGatewayV1.AppGroup.name,
        GlimpseGatewayV1.AppLifecycle.name,
    ]

    /// `Devices`, served once per gateway (the others, per device).
    package static let devicesServiceName = GlimpseGatewayV1.Devices.name

    /// Opens `<directory>/gateway.sqlite` (or an in-memory store).
    package static func open(
        directory: URL?, upstreams: Upstreams, clock: Conductor.Mode, logger: Logger,
        eventLogCapacity: Int = 100_000, followMaxLag: Int = EventsHandler.defaultFollowMaxLag,
        settleTimeout: Duration = .seconds(5), viewsDeadline: Duration? = nil, device: String? = nil
    ) throws -> GatewayServer {
        let store = try directory.map { try DeviceStore(directory: $0) } ?? DeviceStore.inMemory()
        let gateway = try Gateway(
            store: store, upstreams: upstreams, log: EventLog(capacity: eventLogCapacity),
            clock: clock, logger: logger, settleTimeout: settleTimeout, viewsDeadline: viewsDeadline,
            device: device)
        let handlers: [any RPCJSONService] = [
            AppsHandler(gateway: gateway), WidgetsHandler(gateway: gateway), DeviceHandler(gateway: gateway),
            ClockHandler(gateway: gateway), ActivitiesHandler(gateway: gateway),
            EventsHandler(gateway: gateway, followMaxLag: followMaxLag),
            WidgetCenterHandler(gateway: gateway), ActivityKitHandler(gateway: gateway),
            AppGroupHandler(gateway: gateway),
            AppLifecycleHandler(gateway: gateway),
        ]
        return GatewayServer(gateway: gateway, followers: Followers(gateway: gateway), handlers: handlers)
    }

    /// Ends every `Events.Follow` stream (a browser page holds one open): shutdown begins.
    package func endStreams() {
        gateway.log.finish()
    }

    package func close() async {
        gateway.log.finish()
        await gateway.upstreams.shutdown()
    }
}
