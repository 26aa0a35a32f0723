// glimpse-gateway: the device. Installed apps, Home Screen and Lock Screen placements,
// Live Activities on screen, taps, the event log and the clock conductor; the API that
// scripts (gRPC or JSON) and apps call.
//
//     glimpse-gateway [--port 7700] [--data-dir ./.glimpse/gateway] [--clock system|manual]
//                     [--timeline-address 127.0.0.1:7701] [--intent-address …:7702]
//                     [--activity-address …:7703] [--asset-address …:7704] [--follow-real-time]
//                     [--shards shards.json]
//
// Every flag falls back to GLIMPSE_<FLAG>. Prints `listening on port N` once bound. It
// starts and answers even when no other service is reachable yet.
import ArgumentParser
import Foundation
import GatewayService
import GlimpseVocabulary
import GlimpseMessages
import Logging
import RPCCore
import ServiceKit

@main
struct GatewayMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-gateway",
        abstract: "The device: placements, taps, Live Activities, the event log and one clock for the stack.")

    @OptionGroup var service: ServiceOptions
    @Option(
        name: .customLong("timeline-address"),
        help: "glimpse-timeline (default 127.0.0.1:7701; GLIMPSE_TIMELINE_ADDRESS).")
    var timeline: String?
    @Option(
        name: .customLong("intent-address"), help: "glimpse-intent (default 127.0.0.1:7702; GLIMPSE_INTENT_ADDRESS).")
    var intent: String?
    @Option(
        name: .customLong("activity-address"),
        help: "glimpse-activity (default 127.0.0.1:7703; GLIMPSE_ACTIVITY_ADDRESS).")
    var activity: String?
    @Option(name: .customLong("asset-address"), help: "glimpse-asset (default 127.0.0.1:7704; GLIMPSE_ASSET_ADDRESS).")
    var asset: String?
    @Option(
        help:
            "A shard map (JSON: {\"shards\": [{name, timeline, intent, activity, asset}, …]}): each device lives on one shard's services, the default device on the first's; the four address options are then not read (GLIMPSE_SHARDS)."
    )
    var shards: String?
    @Option(
        name: .customLong("follow-real-time"),
        help:
            "With --clock manual: true to start following real time from the start instant, false to start frozen (default false; GLIMPSE_FOLLOW_REAL_TIME)."
    )
    var followRealTime: String?
    @Option(
        help:
            "The screen model: iPhone393x852 (default), iPhone430x932, iPhone375x812, iPhone375x667 or iPad1024x1366 (GLIMPSE_DEVICE). Give glimpse-timeline the same one."
    )
    var device: String?
    @Option(
        name: .customLong("event-log-capacity"),
        help: "Events kept in memory (default 100000; GLIMPSE_EVENT_LOG_CAPACITY).")
    var eventLogCapacity: String?
    @Option(
        name: .customLong("settle-timeout"),
        help:
            "How long a call waits for the screen to show its effect (a new widget's first timeline, a tap's reload) before it answers with what is shown (default 5s; GLIMPSE_SETTLE_TIMEOUT)."
    )
    var settleTimeout: String?
    @Option(
        name: .customLong("views-deadline"),
        help:
            "How long the device waits for an app's Live Activity views (default 2s, ActivityViewsDeadline; GLIMPSE_VIEWS_DEADLINE)."
    )
    var viewsDeadline: String?
    @Option(
        name: .customLong("follow-max-lag"),
        help:
            "Events an Events.Follow stream may leave unread (committed since it began) before it ends with RESOURCE_EXHAUSTED (default 10000; GLIMPSE_FOLLOW_MAX_LAG)."
    )
    var followMaxLag: String?

    func run() async throws {
        var defaults = ServiceConfig.defaults(service: "gateway")
        defaults.port = 7700
        let config = try service.resolve(service: "gateway", defaults: defaults)
        let source = service.source()
        var addresses = Upstreams.Addresses()
        addresses.timeline = try source.optionalAddress("timeline-address", timeline) ?? addresses.timeline
        addresses.intent = try source.optionalAddress("intent-address", intent) ?? addresses.intent
        addresses.activity = try source.optionalAddress("activity-address", activity) ?? addresses.activity
        addresses.asset = try source.optionalAddress("asset-address", asset) ?? addresses.asset
        var shardMap = ShardMap(single: addresses)
        if let path = try source.optional("shards", shards, expected: "a file", parse: { $0 }) {
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw ConfigError("--shards \(path): cannot read the file")
            }
            do { shardMap = try ShardMap(json: Array(bytes)) } catch {
                throw ConfigError("--shards \(path): \(error)")
            }
            addresses = shardMap.first.addresses
        }
        let follow = try source.value("follow-real-time", followRealTime, expected: "true or false", default: false) {
            ["true": true, "false": false][$0.lowercased()]
        }
        let capacity = try source.value(
            "event-log-capacity", eventLogCapacity, expected: "a number of events ≥ 1", default: 100_000
        ) {
            Int($0).flatMap { $0 >= 1 ? $0 : nil }
        }
        let settle = try source.value(
            "settle-timeout", settleTimeout, expected: "a duration such as 5s or 500ms", default: 5.0
        ) {
            (try? DurationText.parse($0)).flatMap { $0 > 0 ? $0 : nil }
        }
        let views = try source.value(
            "views-deadline", viewsDeadline, expected: "a duration such as 2s or 500ms", default: 2.0
        ) {
            (try? DurationText.parse($0)).flatMap { $0 > 0 ? $0 : nil }
        }
        let maxLag = try source.value(
            "follow-max-lag", followMaxLag, expected: "a number of events ≥ 1",
            default: EventsHandler.defaultFollowMaxLag
        ) {
            Int($0).flatMap { $0 >= 1 ? $0 : nil }
        }
        let screen = try source.device(device)
        let logger = ServiceLogging.bootstrap(config)
        let mode: Conductor.Mode =
            switch config.clock {
            case .system: .system
            case .manual(let start): .manual(start: start, follow: follow)
            }
        let upstreams = Upstreams(addresses: addresses, deviceKey: config.deviceKey)
        let open: @Sendable (URL, Upstreams, Logger) throws -> GatewayServer = { directory, upstreams, logger in
            try GatewayServer.open(
                directory: directory, upstreams: upstreams, clock: mode, logger: logger, eventLogCapacity: capacity,
                followMaxLag: maxLag, settleTimeout: .milliseconds(Int64(settle * 1000)),
                viewsDeadline: .milliseconds(Int64(views * 1000)), device: screen.rawValue)
        }
        let server = try open(URL(fileURLWithPath: config.dataDirectory), upstreams, logger)
        // Devices beside the default one: each a gateway of its own over the same connections.
        let devices = DeviceGateways(
            root: URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("devices"),
            limit: config.maxDevices, upstreams: upstreams, shards: shardMap, logger: logger, open: open)
        await devices.openAll(logger: logger)
        let devicesHandler = DevicesHandler(devices: devices, gateway: server.gateway, model: screen.rawValue)
        var runner = ServiceRunner(
            config: config, logger: logger, services: server.handlers + [devicesHandler],
            serviceNames: GatewayServer.serviceNames + [GatewayServer.devicesServiceName],
            descriptors: GlimpseMessagesDescriptors.files)
        runner.serveDevices(
            devices.table, perDevice: GatewayServer.serviceNames, tokenNamesDevice: true, managedHere: false)
        // The same API as JSON on the same port (HTTP/1.1 and h2c): POST /v1/<service>/<method>.
        runner.jsonServices = server.handlers + [devicesHandler]
        // The device in a browser on the same port (HTTP/1.1): GET /, server-sent events.
        runner.webFiles = WebFiles.all
        runner.addBackground(server.followers)
        runner.onShutdownEndStreams {
            server.endStreams()
            devices.endStreams()
        }
        runner.onShutdown("gateway") { await server.close() }
        runner.markReady()
        try await runner.run()
    }
}
