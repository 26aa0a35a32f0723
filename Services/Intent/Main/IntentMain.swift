// glimpse-intent: each app's intent catalog, widget taps (at most once per idempotency
// key, in order per widget), the App Group store, and the apps' IntentHandlers.
//
//     glimpse-intent [--port 7702] [--data-dir ./.glimpse/intent] [--clock system|manual]
//                    [--timeline-address host:port]
//
// Every flag falls back to GLIMPSE_<FLAG>. Without --timeline-address (or
// GLIMPSE_TIMELINE_ADDRESS) the reloads a tap asks for are logged and dropped; with it, they
// are kept until glimpse-timeline has them. Prints
// `listening on port N` once bound.
import ArgumentParser
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseRPC
import IntentService
import Logging
import PostgresStore
import ServiceKit
import ServiceLifecycle

@main
struct IntentMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-intent",
        abstract: "Widget taps, App Intents and the App Group store, as WidgetKit does them.")

    @OptionGroup var service: ServiceOptions
    @OptionGroup var snapshots: SnapshotOptions
    @OptionGroup var store: StoreOptions

    @Option(
        name: .customLong("timeline-address"),
        help:
            "glimpse-timeline, for the reloads taps ask for (GLIMPSE_TIMELINE_ADDRESS); without it they are logged and dropped."
    )
    var timeline: String?

    func run() async throws {
        var defaults = ServiceConfig.defaults(service: "intent")
        defaults.port = 7702
        let config = try service.resolve(service: "intent", defaults: defaults)
        let timelineAddress = try service.source().optionalAddress("timeline-address", timeline)
        let policy = try snapshots.policy()
        let logger = ServiceLogging.bootstrap(config)
        let clock = config.hostClock()
        let outbound = Outbound(
            address: timelineAddress, deviceKey: config.deviceKey,
            log: { message in logger.notice("\(message)") })
        let serviceNames = [GlimpseIntentV1.IntentService.name, GlimpseClockV1.Clock.name]
        let server = try await store.opening(
            name: "intent", standby: StandbyHealth(config: config, serviceNames: serviceNames, logger: logger),
            report: { message in logger.notice("\(message)") }
        ) { journal in
            try IntentServer.open(
                directory: URL(fileURLWithPath: config.dataDirectory), journal: journal, clock: clock,
                outbound: outbound,
                snapshots: policy, report: { message in logger.warning("\(message)") })
        }
        logger.info("intent store: \(server.host.opening)")
        let devices = try store.devices(config) { device, directory in
            var outbound = outbound
            outbound.device = device
            let server = try IntentServer.open(
                directory: directory,
                clock: config.hostClock(), outbound: outbound, snapshots: policy, sharing: server.connections,
                report: { message in logger.warning("device \(device): \(message)") })
            return .hosting(
                server.host, services: [server.handlers, server.clock],
                background: [ReloadDeliveryService(delivery: server.delivery, host: server.host)], close: server.close)
        }
        var runner = ServiceRunner(
            config: config, logger: logger, services: [server.handlers, server.clock],
            serviceNames: serviceNames,
            descriptors: GlimpseMessagesDescriptors.files)
        runner.addHost(server.host)
        runner.serveDevices(devices, perDevice: serviceNames)
        // Reloads taps asked for while glimpse-timeline was down (or before a restart) go when it answers.
        runner.addBackground(ReloadDeliveryService(delivery: server.delivery, host: server.host))
        runner.onShutdown("intent store") { try await server.close() }
        runner.markReady()  // the journal is open and replayed
        try await runner.run()
    }
}
