// glimpse-activity: Live Activities as ActivityKit runs them, and the APNs-compatible push
// endpoint a team's push server points at instead of Apple's.
//
//     glimpse-activity [--port 7703] [--data-dir ./.glimpse/activity] [--clock system|manual]
//                      [--apns-tls-port 7443] [--apns-h2c-port 7444]
//                      [--apns-auth jwt|none] [--apns-key TEAM:KEYID:PATH ...] [--apns-token-refresh 1200]
//                      [--apns-certificate PATH --apns-private-key PATH]
//                      [--timeline-address host:port] [--apns-tls-handshake-timeout 10]
//                      [--max-activities-per-app 5] [--max-activities N] [--hourly-push-budget 15]
//                      [--frequent-hourly-push-budget 120]
//
// Every flag falls back to GLIMPSE_<FLAG> (GLIMPSE_APNS_KEY takes several, comma-separated).
// Prints `listening on port N` (gRPC) first, then `apns-tls listening on port N (CA: path)`
// and `apns-h2c listening on port N`.
import ActivityEngine
import ActivityService
import ArgumentParser
import Crypto
import EngineHosting
import Foundation
import GlimpseMessages
import GlimpseRPC
import HTTP2
import Logging
import PostgresStore
import ServiceKit

@main
struct ActivityMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-activity",
        abstract:
            "Live Activities, their push tokens and an APNs-compatible push endpoint, as ActivityKit and APNs do them.")

    @OptionGroup var service: ServiceOptions
    @OptionGroup var snapshots: SnapshotOptions
    @OptionGroup var store: StoreOptions

    @Option(
        name: .customLong("apns-tls-port"),
        help:
            "The APNs endpoint over TLS (HTTP/2, with or without ALPN); 0 turns it off, `auto` picks a free port (default 7443; GLIMPSE_APNS_TLS_PORT)."
    )
    var apnsTLSPort: String?

    @Option(
        name: .customLong("apns-h2c-port"),
        help:
            "The APNs endpoint over cleartext HTTP/2 (prior knowledge); 0 turns it off, `auto` picks a free port (default 7444; GLIMPSE_APNS_H2C_PORT)."
    )
    var apnsH2CPort: String?

    @Option(
        name: .customLong("apns-auth"),
        help:
            "jwt: provider tokens signed with a registered key, as Apple requires; none: no token needed, for local use (default jwt; GLIMPSE_APNS_AUTH)."
    )
    var apnsAuth: String?

    @Option(
        name: .customLong("apns-key"),
        help:
            "A team's signing key: TEAMID:KEYID:PATH to its PEM public key or AuthKey .p8 file; repeat for more (GLIMPSE_APNS_KEY, comma-separated)."
    )
    var apnsKeys: [String] = []

    @Option(
        name: .customLong("apns-token-refresh"),
        help:
            "The shortest time, in seconds, between two provider tokens on one connection; sooner is 429 TooManyProviderTokenUpdates, as Apple answers; 0 allows any (default 1200; GLIMPSE_APNS_TOKEN_REFRESH)."
    )
    var tokenRefresh: String?

    @Option(
        name: .customLong("apns-certificate"),
        help:
            "The TLS certificate chain (PEM) for the endpoint; without it a local CA and certificate are made under the data directory (GLIMPSE_APNS_CERTIFICATE)."
    )
    var certificate: String?

    @Option(
        name: .customLong("apns-private-key"),
        help: "The private key (PEM) of --apns-certificate (GLIMPSE_APNS_PRIVATE_KEY).")
    var privateKey: String?

    @Option(
        name: .customLong("timeline-address"),
        help:
            "glimpse-timeline, for widget pushes' reloadAllTimelines() (GLIMPSE_TIMELINE_ADDRESS); without it they are logged and dropped."
    )
    var timeline: String?

    @Option(
        help:
            "Activity ids and push tokens of a new store derive from this text, so a scripted run gives the same ones every time (GLIMPSE_SEED; default: random). A store keeps the seed it started with."
    )
    var seed: String?

    @Option(
        name: .customLong("apns-tls-handshake-timeout"),
        help:
            "Seconds a connection to the TLS port has to complete its handshake before it is closed (default 10; GLIMPSE_APNS_TLS_HANDSHAKE_TIMEOUT)."
    )
    var handshakeTimeout: String?

    @Option(
        name: .customLong("max-activities-per-app"),
        help:
            "Ongoing Live Activities per app on a device (ActivityKit's targetMaximumExceeded past it; default 5, the community's number; GLIMPSE_MAX_ACTIVITIES_PER_APP). A journal keeps the settings it was written with."
    )
    var maxActivitiesPerApp: String?

    @Option(
        name: .customLong("max-activities"),
        help:
            "Ongoing Live Activities per device, all apps (globalMaximumExceeded past it; default none: Apple discloses none; GLIMPSE_MAX_ACTIVITIES)."
    )
    var maxActivities: String?

    @Option(
        name: .customLong("hourly-push-budget"),
        help:
            "Priority-10 pushes per activity per hour before they are throttled (default 15; GLIMPSE_HOURLY_PUSH_BUDGET)."
    )
    var hourlyPushBudget: String?

    @Option(
        name: .customLong("frequent-hourly-push-budget"),
        help:
            "The same for an app with frequent updates on (default 120; GLIMPSE_FREQUENT_HOURLY_PUSH_BUDGET)."
    )
    var frequentHourlyPushBudget: String?

    /// The engine's settings: ActivityKit's defaults, the flags over them.
    func settings(_ source: ConfigSource) throws -> ActivitySettings {
        var settings = ActivitySettings.defaults
        func count(_ flag: String, _ given: String?, _ range: ClosedRange<Int>, default value: Int) throws -> Int {
            try source.value(
                flag, given, expected: "a number, \(range.lowerBound) to \(range.upperBound)", default: value
            ) {
                Int($0).flatMap { range.contains($0) ? $0 : nil }
            }
        }
        settings.targetMaximum = try count(
            "max-activities-per-app", maxActivitiesPerApp, 1...100_000, default: settings.targetMaximum)
        settings.globalMaximum = try source.optional(
            "max-activities", maxActivities, expected: "a number, 1 to 1000000"
        ) { Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil } }
        settings.hourlyPushBudget = try count(
            "hourly-push-budget", hourlyPushBudget, 0...1_000_000, default: settings.hourlyPushBudget)
        settings.frequentHourlyPushBudget = try count(
            "frequent-hourly-push-budget", frequentHourlyPushBudget, 0...1_000_000,
            default: settings.frequentHourlyPushBudget)
        return settings
    }

    func run() async throws {
        var defaults = ServiceConfig.defaults(service: "activity")
        defaults.port = 7703
        let config = try service.resolve(service: "activity", defaults: defaults)
        let source = service.source()
        let settings = try settings(source)
        let timelineAddress = try source.optionalAddress("timeline-address", timeline)
        let policy = try snapshots.policy()
        let tlsPort = try source.value(
            "apns-tls-port", apnsTLSPort, expected: "a port, 0 (off) or auto", default: 7443, parse: Self.port)
        let h2cPort = try source.value(
            "apns-h2c-port", apnsH2CPort, expected: "a port, 0 (off) or auto", default: 7444, parse: Self.port)
        let auth = try source.value("apns-auth", apnsAuth, expected: "jwt or none", default: "jwt") {
            ["jwt", "none"].contains($0) ? $0 : nil
        }
        let keySpecs =
            apnsKeys.isEmpty
            ? (source.raw("apns-key", nil)?.value.split(separator: ",").map(String.init) ?? []) : apnsKeys
        let keys = try keySpecs.map(Self.key)
        var tokenSettings = ProviderTokens.Settings()
        tokenSettings.minimumRefreshInterval = try source.value(
            "apns-token-refresh", tokenRefresh, expected: "seconds, 0 or more",
            default: tokenSettings.minimumRefreshInterval
        ) { Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }
        var apnsConfig = HTTP2ServerConfig.defaults
        apnsConfig.idleTimeout = config.idleTimeout
        apnsConfig.tlsHandshakeTimeout = try source.value(
            "apns-tls-handshake-timeout", handshakeTimeout, expected: "seconds, more than 0",
            default: apnsConfig.tlsHandshakeTimeout
        ) { ConfigSource.timeout($0).flatMap { $0 } }
        let logger = ServiceLogging.bootstrap(config)
        if auth == "jwt", keys.isEmpty {
            logger.warning("--apns-auth jwt without --apns-key: every push will be refused 403 InvalidProviderToken")
        }
        let clock = config.hostClock()
        let dataDirectory = URL(fileURLWithPath: config.dataDirectory)
        let serviceNames = [GlimpseActivityV1.ActivityService.name, GlimpseClockV1.Clock.name]
        let authentication: APNsEndpoint.Authentication =
            auth == "none" ? .none : .providerTokens(ProviderTokens(keys: keys, settings: tokenSettings))
        let seedText = source.raw("seed", seed)?.value
        let outbound = Outbound(
            address: timelineAddress, deviceKey: config.deviceKey, log: { message in logger.notice("\(message)") })
        let server = try await store.opening(
            name: "activity", standby: StandbyHealth(config: config, serviceNames: serviceNames, logger: logger),
            report: { message in logger.notice("\(message)") }
        ) { journal in
            try await ActivityServer.open(
                directory: dataDirectory, journal: journal, clock: clock, settings: settings,
                authentication: authentication,
                outbound: outbound, snapshots: policy,
                seed: seedText.map { Array(SHA256.hash(data: Array($0.utf8))) },
                report: { message in logger.warning("\(message)") })
        }
        logger.info("activity store: \(server.host.opening)")
        let apnsDevices = APNsDevices(default: server.endpoint)
        let devices = try store.devices(config) { device, directory in
            var outbound = outbound
            outbound.device = device
            let server = try await ActivityServer.open(
                directory: directory, clock: config.hostClock(), settings: settings,
                authentication: authentication, outbound: outbound, snapshots: policy,
                sharing: server.connections,
                // Each device's ids and tokens are its own, the same in every scripted run.
                seed: seedText.map { Array(SHA256.hash(data: Array("\($0)\u{0}\(device)".utf8))) },
                tokenIssued: { token in apnsDevices.issued(token, by: device) },
                report: { message in logger.warning("device \(device): \(message)") })
            await apnsDevices.register(device, server.endpoint)
            return .hosting(server.host, services: [server.handlers, server.clock]) {
                apnsDevices.remove(device)
                try await server.close()
            }
        }
        // Every device is open from the start: a push to its tokens finds it.
        await devices.openAll(logger: logger)

        // The APNs endpoint's listeners.
        var listeners: [HTTP2Listener] = []
        var names: [String] = []
        var caPath: String?
        if tlsPort != 0 {
            let files: TLSCertificateFiles
            if let chain = try source.optional("apns-certificate", certificate, expected: "a path", parse: { $0 }) {
                let key = try source.required("apns-private-key", privateKey, expected: "a path", parse: { $0 })
                files = TLSCertificateFiles(certificateChain: chain, privateKey: key)
            } else {
                let local = try LocalCertificateAuthority.prepare(in: dataDirectory.appendingPathComponent("tls").path)
                files = local.server
                caPath = local.caCertificate
            }
            listeners.append(.tls(host: config.host, port: max(tlsPort, 0), certificates: files))
            names.append("apns-tls")
        }
        if h2cPort != 0 {
            listeners.append(.cleartext(host: config.host, port: max(h2cPort, 0)))
            names.append("apns-h2c")
        }

        var runner = ServiceRunner(
            config: config, logger: logger, services: [server.handlers, server.clock],
            serviceNames: serviceNames,
            descriptors: GlimpseMessagesDescriptors.files)
        let (grpcBound, bound) = AsyncStream<Void>.makeStream()
        runner.onListening = { _ in bound.finish() }
        runner.addHost(server.host)
        runner.serveDevices(devices, perDevice: serviceNames)
        if !listeners.isEmpty {
            let caPath = caPath
            // As Apple's: one stream until a valid provider token has been posted.
            if auth == "jwt" { apnsConfig.maxConcurrentStreamsUntilTrusted = 1 }
            apnsConfig.events = runner.connectionLog.connectionEvents
            let apns = HTTP2Server(
                listeners: listeners, config: apnsConfig, handler: APNsHTTP2Handler(devices: apnsDevices))
            runner.addBackground(
                APNsServerService(server: apns, names: names, logger: logger) { ports in
                    for await _ in grpcBound {}  // after the `listening on port N` line
                    for (name, port) in ports {
                        print(
                            "\(name) listening on port \(port)"
                                + (name == "apns-tls" ? caPath.map { " (CA: \($0))" } ?? "" : ""))
                    }
                    fflush(nil)
                })
        }
        runner.onShutdown("activity store") { try await server.close() }
        runner.markReady()  // the journal is open and replayed
        try await runner.run()
    }

    /// A port, 0 (off) or `auto` (-1: a free one).
    static func port(_ raw: String) -> Int? {
        if raw == "auto" { return -1 }
        guard let port = Int(raw), (0...65535).contains(port) else { return nil }
        return port
    }

    static func key(_ spec: String) throws -> ProviderTokens.Key {
        let parts = spec.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ConfigError("--apns-key: expected TEAMID:KEYID:PATH, got \"\(spec)\"")
        }
        let pem: String
        do {
            pem = try String(contentsOfFile: parts[2], encoding: .utf8)
        } catch {
            throw ConfigError("--apns-key: cannot read \(parts[2]): \(error.localizedDescription)")
        }
        do {
            return try ProviderTokens.Key(teamID: parts[0], keyID: parts[1], pem: pem)
        } catch {
            throw ConfigError(
                "--apns-key: \(parts[2]) is not a P-256 key in PEM (a public key or an AuthKey .p8): \(error)")
        }
    }
}
