package import GlimpseMessages
import GlimpseRPC
package import RPCCore
import RPCNIO

/// The app's connection to glimpse-gateway, for what the OS answers on a phone (the App
/// Group store). One long-lived client; `run()` keeps it until `shutdown()`.
package struct GatewayLink: Sendable {
    package let host: String
    package let port: Int
    package let token: AppToken
    package let client: GRPCClient

    package init(host: String, port: Int, token: AppToken) {
        self.host = host
        self.port = port
        self.token = token
        var config = NIOClientConfig.defaults
        config.userAgent = "glimpse-demo/0.1"
        self.client = GRPCClient(transport: NIOClientTransport(host: host, port: port, config: config))
    }

    package func run() async throws { try await client.run() }
    package func shutdown() { client.beginGracefulShutdown() }

    /// A call with the app token; when the gateway refuses the token, the token file is read
    /// again and the call made once more (the app may have been reinstalled).
    package func withToken<Result: Sendable>(
        _ call: @Sendable (Metadata) async throws -> Result
    ) async throws -> Result? {
        for attempt in 0..<2 {
            guard let token = token.current() else { return nil }
            var metadata = Metadata()
            metadata.addString("Bearer \(token)", forKey: "authorization")
            do {
                return try await call(metadata)
            } catch let error as RPCError
                where attempt == 0 && [.unauthenticated, .permissionDenied].contains(error.code)
            {
                self.token.invalidate()
            }
        }
        return nil
    }
}

/// The App Group store through the gateway's AppGroup service.
package struct GatewaySharedDefaults: SharedDefaults {
    package let gateway: GatewayLink

    package init(gateway: GatewayLink) { self.gateway = gateway }

    package func value(forKey key: String, inGroup group: String) async -> GlimpseWidgetV1.ParameterValue? {
        let appGroup = GlimpseGatewayV1.AppGroup.Client(wrapping: gateway.client)
        let request = GlimpseIntentV1.GetRequest(appGroup: group, key: key)
        let answer = try? await gateway.withToken { metadata in
            try await appGroup.get(
                ClientRequest(message: request, metadata: metadata),
                options: CallOptions(timeout: .seconds(5))
            ).message
        }
        return answer?.entry?.value
    }
}
