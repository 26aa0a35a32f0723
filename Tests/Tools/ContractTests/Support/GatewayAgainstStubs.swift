import Contracts
import Foundation
import GatewayService
import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import Logging
import RPCCore
import ServiceKit
import Testing

/// glimpse-gateway as its main runs it (the handlers of its API, the followers that keep
/// the screen current), its four upstreams replaced by stubs made from its contracts: what
/// it does here it does with no more than the contracts promise.
struct GatewayAgainstStubs {
    let contracts: ContractSet
    let stubs: [Provider: ContractStub]
    let client: GRPCClient

    /// The bundle the consumer tests install: the contracts' `contracts.gateway.${run}`.
    static let run = "consumer"
    static let bundle = "contracts.gateway.\(run)"

    var apps: GlimpseGatewayV1.Apps.Client { .init(wrapping: client) }
    var widgets: GlimpseGatewayV1.Widgets.Client { .init(wrapping: client) }
    var device: GlimpseGatewayV1.Device.Client { .init(wrapping: client) }
    var activities: GlimpseGatewayV1.Activities.Client { .init(wrapping: client) }
    var widgetCenter: GlimpseGatewayV1.WidgetCenter.Client { .init(wrapping: client) }
    var activityKit: GlimpseGatewayV1.ActivityKit.Client { .init(wrapping: client) }
    var appGroup: GlimpseGatewayV1.AppGroup.Client { .init(wrapping: client) }
    var appLifecycle: GlimpseGatewayV1.AppLifecycle.Client { .init(wrapping: client) }

    static func run<Result: Sendable>(_ body: (GatewayAgainstStubs) async throws -> Result) async throws -> Result {
        let contracts = try Repository.contracts()
        let upstreams: [Provider] = [.timeline, .intent, .activity, .asset]
        var stubs: [Provider: ContractStub] = [:]
        for provider in upstreams {
            stubs[provider] = ContractStub(contracts, consumer: "glimpse-gateway", provider: provider.rawValue)
        }
        return try await serving(upstreams.map { stubs[$0]! }) { ports in
            var addresses = Upstreams.Addresses()
            addresses.timeline = ServiceAddress(host: "127.0.0.1", port: ports[0])
            addresses.intent = ServiceAddress(host: "127.0.0.1", port: ports[1])
            addresses.activity = ServiceAddress(host: "127.0.0.1", port: ports[2])
            addresses.asset = ServiceAddress(host: "127.0.0.1", port: ports[3])
            let server = try GatewayServer.open(
                directory: nil, upstreams: Upstreams(addresses: addresses), clock: .system,
                logger: Logger(label: "contracts", factory: { _ in SwiftLogNoOpLogHandler() }),
                settleTimeout: .seconds(1))
            let transport = InProcessTransport()
            let grpc = GRPCServer(transport: transport.server, services: server.handlers)
            let client = GRPCClient(transport: transport.client)
            let serving = Task { try await grpc.serve() }
            let running = Task { try await client.run() }
            let following = Task { try await server.followers.run() }
            defer {
                following.cancel()
                serving.cancel()
                running.cancel()
            }
            let harness = GatewayAgainstStubs(contracts: contracts, stubs: stubs, client: client)
            let result = try await body(harness)
            following.cancel()
            client.beginGracefulShutdown()
            grpc.beginGracefulShutdown()
            _ = await following.result
            _ = await running.result
            _ = await serving.result
            await server.close()
            return result
        }
    }

    /// Serves each stub on a port of its own.
    private static func serving<Result: Sendable>(
        _ stubs: [ContractStub], ports: [Int] = [], _ body: ([Int]) async throws -> Result
    ) async throws -> Result {
        guard let first = stubs.first else { return try await body(ports) }
        return try await LoopbackServer.serving([first]) { port in
            try await serving(Array(stubs.dropFirst()), ports: ports + [port], body)
        }
    }

    /// The request of one of the gateway's interactions, as the contract gives it (with
    /// `${run}` the tests' own).
    func request(_ provider: Provider, _ name: String) throws -> JSONValue {
        let interaction = try #require(
            contracts.between("glimpse-gateway", provider.rawValue).first { $0.name == name })
        return try interaction.call.requests(Variables(run: Self.run))[0]
    }

    /// Installs the contracts' app (the manifest the install interactions hold, the poster
    /// the asset put holds); returns its app token.
    func install() async throws -> String {
        let manifestJSON = try #require(try request(.timeline, "install-app")["manifest"])
        let manifest = try GlimpseAppV1.AppManifest(
            protoJSONValue: manifestJSON, path: "", ignoringUnknownFields: false)
        let put = try #require(contracts.between("glimpse-gateway", Provider.asset.rawValue).first { $0.name == "put" })
        let chunk = try #require(try put.call.requests(Variables(run: Self.run))[1]["chunk"]?.stringValue)
        let poster = try #require(Data(base64Encoded: chunk))
        let installed = try await apps.install(
            ClientRequest(
                message: GlimpseGatewayV1.InstallRequest(
                    manifest: manifest, assetData: ["posters/contract": [UInt8](poster)]))
        ).message
        return installed.appToken
    }

    /// A request carrying the app's token.
    static func app<Message: Sendable>(_ message: Message, token: String) -> ClientRequest<Message> {
        ClientRequest(message: message, metadata: Metadata(["authorization": "Bearer \(token)"]))
    }

    /// Fails the test with every request a stub refused.
    func expectNothingUnmatched(sourceLocation: SourceLocation = #_sourceLocation) {
        for (provider, stub) in stubs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for refused in stub.unmatched {
                Issue.record("\(provider): \(refused)", sourceLocation: sourceLocation)
            }
        }
    }
}
