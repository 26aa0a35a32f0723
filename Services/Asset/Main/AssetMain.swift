// glimpse-asset: each app's named images over one content-addressed store (SHA-256),
// PNG/JPEG header limits, LRU eviction under a byte budget that never evicts a pinned
// blob, streamed Put and Get with the hash as ETag, pins and prefetch hints.
//
//     glimpse-asset [--port 7704] [--data-dir ./.glimpse/asset] [--clock system|manual]
//                   [--budget-bytes 268435456] [--store sqlite|postgres://…]
//
// Every flag falls back to GLIMPSE_<FLAG>. Prints `listening on port N` once bound.
import ArgumentParser
import AssetEngine
import AssetService
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseRPC
import Logging
import PostgresStore
import ServiceKit

@main
struct AssetMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-asset",
        abstract: "App-scoped widget and Live Activity images over a content-addressed store.")

    @OptionGroup var service: ServiceOptions
    @OptionGroup var snapshots: SnapshotOptions
    @OptionGroup var store: StoreOptions

    @Option(
        name: .customLong("budget-bytes"),
        help:
            "The store's byte budget: least recently used unpinned blobs are evicted past it (default 268435456, 256 MiB; GLIMPSE_BUDGET_BYTES)."
    )
    var budgetBytes: String?

    func run() async throws {
        var defaults = ServiceConfig.defaults(service: "asset")
        defaults.port = 7704
        let config = try service.resolve(service: "asset", defaults: defaults)
        var settings = AssetSettings.defaults
        settings.limits.byteBudget = try service.source().value(
            "budget-bytes", budgetBytes, expected: "a positive number of bytes", default: settings.limits.byteBudget
        ) { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let policy = try snapshots.policy()
        let logger = ServiceLogging.bootstrap(config)
        let clock = config.hostClock()
        let serviceNames = [GlimpseAssetV1.AssetService.name, GlimpseClockV1.Clock.name]
        let server = try await store.opening(
            name: "asset", standby: StandbyHealth(config: config, serviceNames: serviceNames, logger: logger),
            report: { message in logger.notice("\(message)") }
        ) { journal in
            try await AssetServer.open(
                directory: URL(fileURLWithPath: config.dataDirectory), journal: journal, clock: clock,
                settings: settings, log: { message in logger.notice("\(message)") }, snapshots: policy)
        }
        logger.info("asset store: \(server.host.opening)")
        let deviceSettings = settings
        let devices = try store.devices(config) { device, directory in
            let server = try await AssetServer.open(
                directory: directory,
                clock: config.hostClock(), settings: deviceSettings,
                log: { message in logger.notice("device \(device): \(message)") }, snapshots: policy)
            return .hosting(server.host, services: [server.handlers, server.clock], close: server.close)
        }
        var runner = ServiceRunner(
            config: config, logger: logger, services: [server.handlers, server.clock],
            serviceNames: serviceNames,
            descriptors: GlimpseMessagesDescriptors.files)
        runner.addHost(server.host)
        runner.serveDevices(devices, perDevice: serviceNames)
        runner.onShutdown("asset store") { try await server.close() }
        runner.markReady()  // the journal is replayed and the blob files reconciled
        try await runner.run()
    }
}
