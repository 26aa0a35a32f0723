package import GlimpseMessages
package import GlimpseRPC
package import RPCCore
import RPCNIO
import ServiceKit

/// One gRPC connection to glimpse-gateway for the length of a command, with the typed
/// clients of its services. Use `GatewayConnection.with(_:appToken:_:)`: it runs the
/// transport, hands the clients over, shuts the connection down, and turns a call's error
/// into a `CLIFailure` (unreachable gateway → exit 3, the gateway's error → exit 1).
package struct GatewayConnection: Sendable {
    package let address: HostPort
    package let client: GRPCClient
    /// `authorization: Bearer <token>` for the app-scope services.
    package let appToken: String?

    package var apps: GlimpseGatewayV1.Apps.Client { .init(wrapping: client) }
    package var devices: GlimpseGatewayV1.Devices.Client { .init(wrapping: client) }
    package var widgets: GlimpseGatewayV1.Widgets.Client { .init(wrapping: client) }
    package var device: GlimpseGatewayV1.Device.Client { .init(wrapping: client) }
    package var clock: GlimpseGatewayV1.Clock.Client { .init(wrapping: client) }
    package var activities: GlimpseGatewayV1.Activities.Client { .init(wrapping: client) }
    package var events: GlimpseGatewayV1.Events.Client { .init(wrapping: client) }
    package var widgetCenter: GlimpseGatewayV1.WidgetCenter.Client { .init(wrapping: client) }
    package var appLifecycle: GlimpseGatewayV1.AppLifecycle.Client { .init(wrapping: client) }
    package var activityKit: GlimpseGatewayV1.ActivityKit.Client { .init(wrapping: client) }

    /// A request with the app token attached (when there is one).
    package func request<Message: Sendable>(_ message: Message) -> ClientRequest<Message> {
        var metadata = Metadata()
        if let appToken { metadata.addString("Bearer \(appToken)", forKey: "authorization") }
        return ClientRequest(message: message, metadata: metadata)
    }

    package static func with<Result: Sendable>(
        _ address: HostPort, appToken: String? = nil, connectTimeout: Duration = .seconds(5),
        _ body: (GatewayConnection) async throws -> Result
    ) async throws -> Result {
        var config = NIOClientConfig.defaults
        config.connectTimeout = connectTimeout
        config.userAgent = "glimpse-cli/0.1"
        let client = GRPCClient(transport: NIOClientTransport(host: address.host, port: address.port, config: config))
        let running = Task { try? await client.run() }
        defer { client.beginGracefulShutdown() }
        // Calls made with `request(_:)` carry the app's token; every other call is the
        // device's, with the device key when there is one.
        var metadata = Current.context.deviceKey?.metadata ?? Metadata()
        if let device = Current.context.deviceID { metadata.addString(device, forKey: DeviceScope.metadataKey) }
        let connection = GatewayConnection(address: address, client: client.adding(metadata), appToken: appToken)
        do {
            let result = try await body(connection)
            client.beginGracefulShutdown()
            await running.value
            return result
        } catch let error as RPCError {
            client.beginGracefulShutdown()
            await running.value
            throw CLIFailure(error, gateway: address.description)
        } catch {
            client.beginGracefulShutdown()
            await running.value
            throw error
        }
    }
}
