// glimpse-timeline: widget kinds, placements, timelines and reload scheduling (policies,
// per-widget budget, spacing), calling each app's WidgetProvider.
//
//     glimpse-timeline [--port 7701] [--data-dir ./.glimpse/timeline] [--clock system|manual]
//                      [--asset-address 127.0.0.1:7704]
//
// Every flag falls back to GLIMPSE_<FLAG>. Prints `listening on port N` once bound.
import ArgumentParser
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseRPC
import Logging
import PostgresStore
import ServiceKit
import ServiceLifecycle
import TimelineEngine
import TimelineService

@main
struct TimelineMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-timeline", abstract: "Widget timelines and reload scheduling, as WidgetKit does them.")

    @OptionGroup var service: ServiceOptions
    @OptionGroup var snapshots: SnapshotOptions
    @OptionGroup var store: StoreOptions
    @Option(
        help:
            "The screen model: iPhone393x852 (default), iPhone430x932, iPhone375x812, iPhone375x667 or iPad1024x1366 (GLIMPSE_DEVICE). The same as glimpse-gateway's."
    )
    var device: String?
    @Option(
        name: .customLong("asset-address"),
        help:
            "glimpse-asset, told which images the widgets show (pinned while shown) and will show (prefetched) (GLIMPSE_ASSET_ADDRESS); without it nothing is sent."
    )
    var asset: String?

    func run() async throws {
        var settings = TimelineSettings.defaults
        settings.deviceScreen = try service.source().device(device)
        var defaults = ServiceConfig.defaults(service: "timeline")
        defaults.port = 7701
        let config = try service.resolve(service: "timeline", defaults: defaults)
        let assetAddress = try service.source().optionalAddress("asset-address", asset)
        let policy = try snapshots.policy()
        let logger = ServiceLogging.bootstrap(config)
        let clock = config.hostClock()
        let outbound = Outbound(
            address: assetAddress, deviceKey: config.deviceKey,
            log: { message in logger.notice("\(message)") })
        let serviceNames = [GlimpseTimelineV1.TimelineService.name, GlimpseClockV1.Clock.name]
        let server = try await store.opening(
            name: "timeline", standby: StandbyHealth(config: config, serviceNames: serviceNames, logger: logger),
            report: { message in logger.notice("\(message)") }
        ) { journal in
            try TimelineServer.open(
                directory: URL(fileURLWithPath: config.dataDirectory), journal: journal, clock: clock,
                settings: settings,
                outbound: outbound,
                snapshots: policy, report: { message in logger.warning("\(message)") })
        }
        logger.info("timeline store: \(server.host.opening)")
        let deviceSettings = settings
        let devices = try store.devices(config) { device, directory in
            var outbound = outbound
            outbound.device = device
            let server = try TimelineServer.open(
                directory: directory,
                clock: config.hostClock(), settings: deviceSettings, outbound: outbound, snapshots: policy,
                sharing: server.clients, report: { message in logger.warning("device \(device): \(message)") })
            return .hosting(server.host, services: [server.handlers, server.clock], close: server.close)
        }
        var runner = ServiceRunner(
            config: config, logger: logger, services: [server.handlers, server.clock],
            serviceNames: serviceNames,
            descriptors: GlimpseMessagesDescriptors.files)
        runner.addHost(server.host)
        runner.serveDevices(devices, perDevice: serviceNames)
        runner.onShutdown("timeline store") { try await server.close() }
        runner.markReady()  // the journal is open and replayed
        try await runner.run()
    }
}
