#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import EngineHosting
package import GlimpseMessages
package import GlimpseVocabulary
package import Logging
package import NIOCore
import NIOPosix
package import Prometheus
import Metrics
package import RPCCore
import RPCNIO
import GlimpseRPC
import Web
package import ServiceLifecycle
package import UnixSignals

/// Runs a Glimpse service: its gRPC services plus health and reflection on the NIO
/// transport (and, with `jsonServices`, their JSON face on the same port), optional
/// Prometheus metrics, background services (an engine host's timer),
/// and what must close at the end (a store), under one `ServiceGroup`.
///
///     var runner = ServiceRunner(config: config, logger: logger, services: [timeline],
///                                serviceNames: [Glimpse.Timeline.name], descriptors: GlimpseDescriptors.files)
///     let store = try await Store.open(config.dataDirectory)
///     runner.onShutdown("store") { try await store.close() }
///     runner.markReady()
///     try await runner.run()
///
/// Prints `listening on port N` on standard output once bound (then `metrics on port M`
/// with metrics on). Health answers NOT_SERVING until `markReady()`, except for
/// `liveness` (`StandbyHealth.livenessName`), SERVING until shutdown or a failed store.
///
/// On SIGTERM or SIGINT: health goes NOT_SERVING, the server sends GOAWAY and the calls in
/// flight finish (cancelled after `config.shutdownGrace`), then the background services
/// stop, in the reverse of the order they were added, then the closers run, last added
/// first. `run` returns after all that.
package struct ServiceRunner: Sendable {
    package let config: ServiceConfig
    package let logger: Logger
    package let health: HealthStatusStore
    /// Where the listener and connections run (default: NIO's singleton group).
    package var eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    /// Where call handlers run (default: the global concurrent executor).
    package var handlerExecutor: (any TaskExecutor)?
    /// The registry metrics go to; with metrics on and none set, `run` bootstraps
    /// swift-metrics with a new one.
    package var metricsRegistry: PrometheusCollectorRegistry?
    /// Signals that start a graceful shutdown.
    package var shutdownSignals: [UnixSignal] = [.sigterm, .sigint]
    /// Told the gRPC port once bound, after the `listening on port N` line.
    package var onListening: @Sendable (_ port: Int) -> Void = { _ in }
    /// Services also served as JSON on the same port, over HTTP/1.1 and HTTP/2 (usually some
    /// of `services`): `POST /v1/<resource>/<verb>` with a proto3 JSON body, e.g.
    /// `glimpse.gateway.v1.Widgets.Tap` at `/v1/widgets/tap` (see `JSONRoutes`). Empty: gRPC only.
    package var jsonServices: [any RPCJSONService] = []
    /// A web page for browsers on the same port, over HTTP/1.1: the bytes of each file by
    /// name; `GET /` answers `index.html`, `GET /web/<name>` the others. With it the JSON
    /// methods also answer `GET /v1/<resource>/<verb>?json=<request>` and, to
    /// `Accept: text/event-stream`, server-sent events (see RPCNIO's `WebConfig`). nil: no
    /// browser face (JSON by POST only).
    package var webFiles: [String: [UInt8]]?
    /// Whether this process serves device-scope calls (a Glimpse service; not a demo app's
    /// provider): then listening beyond loopback without `--device-key` is warned about.
    package var servesDeviceScope = true
    /// The devices served beside the default one, and which services each serves (see
    /// `DeviceDispatch`); nil: the default device only.
    package var devices: (table: DeviceTable, perDevice: Set<String>, tokenNamesDevice: Bool)?

    /// What the transports report about peers (GOAWAYs, idle connections closed, failed
    /// accepts), logged rate limited; a service's other servers (glimpse-activity's APNs
    /// endpoint) log theirs here too.
    package let connectionLog: RateLimitedLog
    private var services: [any RPCService]
    private let readiness: Readiness
    private var background: [ServiceGroupConfiguration.ServiceConfiguration] = []
    private var closers: [(name: String, close: @Sendable () async throws -> Void)] = []
    private var streamEnders: [@Sendable () -> Void] = []

    /// - Parameters:
    ///   - services: the service's own handlers; health and reflection are added.
    ///   - serviceNames: their full names (`…Service.name`), for health and reflection.
    ///   - descriptors: the generated `…Descriptors.files` of the modules they come from.
    package init(
        config: ServiceConfig, logger: Logger, services: [any RPCService], serviceNames: [String],
        descriptors: [ProtoFileDescriptor]
    ) {
        self.config = config
        self.logger = logger
        self.connectionLog = RateLimitedLog(logger: logger)
        let health = HealthStatusStore([:])
        self.health = health
        self.services = StandardServices.adding(
            to: services, serviceNames: serviceNames, descriptors: descriptors, health: health,
            initialStatus: .notServing)
        health.set(.serving, for: StandbyHealth.livenessName)  // as a standby's port answered
        self.readiness = Readiness(names: health.names)
    }

    /// Health reports SERVING from now on (until shutdown).
    /// Serves the devices of `table` beside the default one: a call of one of `perDevice`
    /// (full service names) that names a device goes to that device's server (see
    /// `DeviceDispatch`). A service also serves `glimpse.device.v1.Devices` (their listing
    /// and deletion, for the gateway); the gateway, which serves its own, says
    /// `managedHere: false` and `tokenNamesDevice: true`.
    package mutating func serveDevices(
        _ table: DeviceTable, perDevice: [String], tokenNamesDevice: Bool = false, managedHere: Bool = true
    ) {
        devices = (table, Set(perDevice), tokenNamesDevice)
        if let capacity = table.fileCapacity, let files = table.openFiles, capacity < table.limit {
            logger.notice(
                "--max-devices \(table.limit), but the open-files limit (\(files)) holds \(capacity) devices' stores open at once: past that the least recently used idle ones are closed and reopened on use (slower when more devices than that are busy); raise the hard limit (ulimit -Hn, a container's nofile), or give the process CAP_SYS_RESOURCE (root outside a container), with which it raises it itself"
            )
        }
        if managedHere { services.append(DevicesService(table: table)) }
    }

    package func markReady() {
        readiness.markReady(health)
    }

    /// A service that runs beside the server and stops after it (an engine host's goes in
    /// with `addHost`).
    package mutating func addBackground(_ service: any Service) {
        background.append(ServiceGroupConfiguration.ServiceConfiguration(service: service))
    }

    /// The service's engine host: its timer runs beside the server, and a failure of its
    /// journal (after which the host refuses every input until reopened) is not swallowed:
    /// logged as critical, health NOT_SERVING, then a graceful shutdown after which `run()`
    /// throws it, so the process exits non-zero and its supervisor (`glimpse up`, compose's
    /// restart policy) starts it again on its journal.
    package mutating func addHost<E: Engine, C: HostCommand>(_ host: EngineHost<E, C>) {
        addBackground(EngineHostTimer(host: host))
        background.append(
            ServiceGroupConfiguration.ServiceConfiguration(
                service: HostFailureWatch(failure: host.failed, health: health, readiness: readiness, logger: logger),
                failureTerminationBehavior: .gracefullyShutdownGroup))
    }

    /// Runs once the server and the background services have stopped (close a store).
    /// Ends streams that never end by themselves (an event log's followers) as shutdown
    /// begins, so they do not hold the server open until the grace period is over.
    package mutating func onShutdownEndStreams(_ end: @escaping @Sendable () -> Void) {
        streamEnders.append(end)
    }

    package mutating func onShutdown(_ name: String, _ close: @escaping @Sendable () async throws -> Void) {
        closers.append((name, close))
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully (see the type's comment).
    package func run() async throws {
        var rpcTransport: any ServerTransport
        let router = RPCRouter(services: services, jsonServices: jsonServices)
        var transportConfig = NIOServerConfig.defaults
        transportConfig.web = webFiles.map { WebConfig(staticFiles: StaticFiles($0)) }
        transportConfig.idleTimeout = config.idleTimeout
        // The gateway follows every device over one connection to each service (a stream per
        // device that never ends): its calls must not queue behind them.
        transportConfig.http2.maxConcurrentStreams += config.maxDevices
        transportConfig.events = connectionLog.connectionEvents
        transportConfig.errorDetailsJSON = { ErrorDetails.json(from: $0) }
        let transport = NIOServerTransport(
            host: config.host, port: config.port, config: transportConfig, group: eventLoopGroup,
            handlerExecutor: handlerExecutor, jsonRoutes: router.jsonRoutes)
        if !router.jsonRoutes.isEmpty {
            logger.info(
                "serving JSON", metadata: ["routes": "\(router.jsonRoutes.all.map(\.route).joined(separator: " "))"])
        }
        rpcTransport = transport
        if let devices {
            rpcTransport = DeviceDispatch(
                rpcTransport, table: devices.table, perDevice: devices.perDevice,
                tokenNamesDevice: devices.tokenNamesDevice)
        }
        var metricsEndpoint: MetricsEndpoint?
        if let metricsPort = config.metricsPort {
            let registry = metricsRegistry ?? ServiceMetrics.bootstrap()
            let endpoint = try await MetricsEndpoint.bind(
                host: config.host, port: metricsPort, registry: registry, group: eventLoopGroup,
                idleTimeout: config.idleTimeout, events: connectionLog.connectionEvents)
            metricsEndpoint = endpoint
            let metrics = RPCMetrics(factory: PrometheusMetricsFactory(registry: registry), served: router.paths)
            rpcTransport = MeteredServerTransport(rpcTransport, metrics: metrics)
        }
        if let key = config.deviceKey {
            // Outermost: every call, metered or not, passes the gate first.
            rpcTransport = DeviceKeyGate(rpcTransport, key: key)
            logger.info("device-scope calls need the device key (--device-key); health and reflection stay open")
        } else if servesDeviceScope, !config.listensOnLoopback {
            logger.warning(
                "listening on \(config.host) without --device-key: whoever reaches this port makes device calls (install, place, read every app's data); give --device-key FILE"
            )
        }
        let logger = self.logger
        let metricsPort = metricsEndpoint?.port
        let onListening = self.onListening
        let server = RPCServerService(
            server: GRPCServer(transport: rpcTransport, router: router), transport: transport, health: health,
            readiness: readiness, logger: logger, endStreams: streamEnders
        ) { address in
            let port = address.port ?? 0
            print("listening on port \(port)")
            if let metricsPort { print("metrics on port \(metricsPort)") }
            fflush(nil)  // all streams: the line must reach a pipe now
            logger.info("listening", metadata: ["port": "\(port)", "ready": "\(readiness.isReady)"])
            onListening(port)
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let metricsEndpoint { services.append(.init(service: MetricsEndpointService(endpoint: metricsEndpoint))) }
        services += background
        services.append(.init(service: server))  // last: the first to shut down
        var groupConfig = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: shutdownSignals, logger: logger)
        groupConfig.maximumGracefulShutdownDuration = config.shutdownGrace
        let group = ServiceGroup(configuration: groupConfig)
        do {
            try await group.run()
        } catch {
            await runClosers()
            throw error
        }
        await runClosers()
    }

    private func runClosers() async {
        if let devices {
            await devices.table.closeAll()
            logger.info("closed", metadata: ["what": "the devices' servers"])
        }
        for closer in closers.reversed() {
            do {
                try await closer.close()
                logger.info("closed", metadata: ["what": "\(closer.name)"])
            } catch {
                logger.error("closing failed", metadata: ["what": "\(closer.name)", "error": "\(error)"])
            }
        }
    }
}

/// Waits for an engine host's failure until shutdown; on one, NOT_SERVING and the failure
/// thrown (the runner's group then shuts down gracefully and `run()` throws it).
struct HostFailureWatch: Service {
    let failure: HostFailure
    let health: HealthStatusStore
    let readiness: Readiness
    let logger: Logger

    func run() async throws {
        guard let error = await cancelWhenGracefulShutdown({ await failure.wait() }) else { return }
        readiness.markFailed(health)
        logger.critical(
            "the store failed; NOT_SERVING, shutting down so the process is started again on its journal",
            metadata: ["error": "\(error)"])
        throw error
    }
}

/// The metrics endpoint as a lifecycle service: serves until shutdown, then closes.
struct MetricsEndpointService: Service {
    let endpoint: MetricsEndpoint

    func run() async throws {
        try? await gracefulShutdown()
        await endpoint.close()
    }
}

/// swift-metrics for the whole process, to Prometheus.
package enum ServiceMetrics {
    /// Bootstraps swift-metrics (once per process) with a Prometheus registry, and
    /// returns it.
    package static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }
}
