import Foundation
package import GlimpseMessages
import GlimpseRPC
import Synchronization
import NIOCore
package import RPCCore
import RPCNIO

/// Serves a widget extension's logic to Glimpse: `glimpse.app.v1.WidgetProvider` for its
/// widget kinds, `IntentHandler` for its intents, `ActivityConfiguration` for its Live
/// Activities. `@main` on a `Widget` or `WidgetBundle` calls it; so does
/// `GlimpseApp.serve(MyWidgets())`.
///
/// Read from the environment: `GLIMPSE_HOST` (default 127.0.0.1), `GLIMPSE_PORT` (default
/// 0, a free port; the process prints `listening on port N` once bound), `GLIMPSE_GATEWAY`
/// (default 127.0.0.1:7700; WidgetCenter, ActivityKit and the App Group go there),
/// `GLIMPSE_TOKEN` or `GLIMPSE_TOKEN_FILE` (the app token `glimpse install` prints; a file
/// is read again when the gateway refuses the token, after a reinstall).
///
/// `<executable> manifest --bundle-id ID --endpoint HOST:PORT` prints the app's manifest
/// (its kinds, families, display names and intents) for `glimpse install`.
public enum GlimpseApp {
    public static func serve<Bundle: WidgetBundle>(_ bundle: Bundle) async throws {
        try await serve(bundle.configured, intents: Bundle.intents)
    }

    public static func serve<Single: Widget>(_ widget: Single) async throws {
        try await serve(widget.configured, intents: Single.intents)
    }

    static func serve(_ configured: Configured, intents: [any AppIntent.Type]) async throws {
        let environment = ProcessInfo.processInfo.environment
        let arguments = Array(CommandLine.arguments.dropFirst())
        for intent in intents { intent.register() }
        if arguments.first == "manifest" {
            print(try Manifest(configured, arguments: Array(arguments.dropFirst())).json)
            return
        }
        let host = environment["GLIMPSE_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        guard let port = Int(environment["GLIMPSE_PORT"] ?? "0"), (0...65535).contains(port) else {
            throw GlimpseAppError("GLIMPSE_PORT must be a port number 0...65535")
        }
        let gatewayAddress = environment["GLIMPSE_GATEWAY"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1:7700"
        guard let colon = gatewayAddress.lastIndex(of: ":"), let gatewayPort = Int(gatewayAddress[colon...].dropFirst())
        else {
            throw GlimpseAppError("GLIMPSE_GATEWAY must be HOST:PORT, got \"\(gatewayAddress)\"")
        }
        let token: AppToken =
            if let value = environment["GLIMPSE_TOKEN"], !value.isEmpty { AppToken(token: value) } else {
                AppToken(path: environment["GLIMPSE_TOKEN_FILE"])
            }
        let link = GatewayLink(host: String(gatewayAddress[..<colon]), port: gatewayPort, token: token)
        link.makeCurrent()

        let services: [any RPCService] = [IntentHandlerService()] + services(of: configured)
        let transport = NIOServerTransport(host: host, port: port)
        let server = GRPCServer(transport: transport, services: services)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await link.run() }
            group.addTask {
                let address = try await transport.listeningAddress()
                print("listening on port \(address.port ?? 0)")
                fflush(nil)
            }
            try await server.serve()
            link.shutdown()
        }
    }
}

extension GlimpseApp {
    /// The WidgetProvider and ActivityConfiguration services of a widget or bundle, for a
    /// process that serves them beside services of its own (the demo apps).
    package static func services(of widget: some Widget) -> [any RPCService] {
        services(of: widget.configured)
    }

    static func services(of configured: Configured) -> [any RPCService] {
        var services: [any RPCService] = []
        if !configured.widgets.isEmpty {
            services.append(WidgetProviderService(source: WidgetTable(configured.widgets)))
        }
        if !configured.activities.isEmpty { services.append(ActivityConfigurationService(configured.activities)) }
        return services
    }
}

struct GlimpseAppError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension AppIntent {
    static func register() { IntentRegistry.shared.register(Self.self) }
}

extension Widget {
    /// `@main struct MyWidget: Widget`: the process serves it.
    @concurrent public static func main() async throws { try await GlimpseApp.serve(Self()) }
}

extension WidgetBundle {
    /// `@main struct MyWidgets: WidgetBundle`: the process serves its widgets.
    @concurrent public static func main() async throws { try await GlimpseApp.serve(Self()) }
}

/// The bundle's widget kinds as the provider service asks them.
struct WidgetTable: TimelineSource {
    let definitions: [String: WidgetDefinition]

    init(_ widgets: [WidgetDefinition]) {
        definitions = Dictionary(widgets.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var kinds: Set<String> { Set(definitions.keys) }

    func placeholder(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    )
        -> GlimpseWidgetV1.TimelineEntry
    {
        definitions[kind]!.placeholder((context, now))
    }

    func snapshot(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async
        -> GlimpseWidgetV1.TimelineEntry
    {
        await definitions[kind]!.snapshot((context, now))
    }

    func timeline(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async
        -> GlimpseWidgetV1.Timeline
    {
        await definitions[kind]!.timeline((context, now))
    }
}

/// `glimpse.app.v1.IntentHandler`: a tap's intent made and performed; what `perform()`
/// asked of WidgetCenter goes back as the tap's reloads.
package struct IntentHandlerService: GlimpseAppV1.IntentHandler.Handler {
    /// `intents` are registered: performed even before a drawn button names them.
    package init(intents: [any AppIntent.Type] = []) {
        for intent in intents { intent.register() }
    }

    package func perform(
        request: ServerRequest<GlimpseAppV1.PerformRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.PerformResponse> {
        let message = request.message
        guard let perform = IntentRegistry.shared.performer(message.intentType) else {
            let known = IntentRegistry.shared.types
            throw RPCError(
                code: .notFound,
                message:
                    "no intent \"\(message.intentType)\" (this process knows \(known.isEmpty ? "none" : known.joined(separator: ", ")); an intent no widget has drawn yet goes in the bundle's static var intents)"
            )
        }
        // A Live Activity's button: `Activity<…>.activities` in perform() is the device's now.
        if !message.activityId.isEmpty { await ActivityDirectory.shared.refresh() }
        let tap = TapReloads()
        var response = GlimpseAppV1.PerformResponse()
        do {
            let result = try await TapReloads.$current.withValue(tap) { try await perform(message.parameters) }
            response.outcome = .succeeded(.init(value: result?.value))
        } catch {
            response.outcome = .failed(.init(message: "\(message.intentType): \(error)"))
        }
        let reloads = tap.reloads
        if reloads.all || !reloads.kinds.isEmpty {
            response.reloads = .init(kinds: reloads.kinds, allTimelines: reloads.all)
        }
        return ServerResponse(message: response)
    }
}
