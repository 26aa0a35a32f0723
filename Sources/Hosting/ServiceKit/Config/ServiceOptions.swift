package import ArgumentParser

/// The flags every Glimpse service takes. Each falls back to `GLIMPSE_<FLAG_NAME>` when
/// not on the command line (flags win); `resolve` validates them all and fails on the
/// first bad value with a message that names the flag and the variable.
///
///     @main struct Serve: AsyncParsableCommand {
///         @OptionGroup var service: ServiceOptions
///         @Option(name: .customLong("timeline-address")) var timeline: String?
///         func run() async throws {
///             let config = try service.resolve(service: "intent")
///             let timeline = try service.source().address("timeline-address", timeline)
///             …
///         }
///     }
package struct ServiceOptions: ParsableArguments, Sendable {
    @Option(help: "Address to listen on (default 127.0.0.1; GLIMPSE_HOST).")
    package var host: String?

    @Option(help: "Port to listen on; 0 picks a free one, printed as `listening on port N` (GLIMPSE_PORT).")
    package var port: String?

    @Option(
        name: .customLong("data-dir"),
        help: "Where the service keeps its data (default ./.glimpse/<service>; GLIMPSE_DATA_DIR).")
    package var dataDir: String?

    @Option(help: "system or manual: manual time moves only when told (GLIMPSE_CLOCK).")
    package var clock: String?

    @Option(
        name: .customLong("start-time"),
        help: "With --clock manual: the starting instant, ISO 8601 (GLIMPSE_START_TIME).")
    package var startTime: String?

    @Option(name: .customLong("log-format"), help: "text or json (one object per line) (GLIMPSE_LOG_FORMAT).")
    package var logFormat: String?

    @Option(
        name: .customLong("log-level"),
        help: "trace, debug, info, notice, warning, error or critical (GLIMPSE_LOG_LEVEL).")
    package var logLevel: String?

    @Option(
        name: .customLong("metrics-port"),
        help: "Serve Prometheus metrics at GET /metrics on this port; off unless given (GLIMPSE_METRICS_PORT).")
    package var metricsPort: String?

    @Option(
        name: .customLong("device-key"),
        help:
            "A file holding the device key: device-scope calls must then send `authorization: Device <key>`, and calls to other services carry it; off unless given, for loopback (GLIMPSE_DEVICE_KEY)."
    )
    package var deviceKey: String?
    @Option(
        name: .customLong("idle-timeout"),
        help:
            "Seconds a connection may stay without a call open before it is closed (GOAWAY); 0 never (default 300; GLIMPSE_IDLE_TIMEOUT)."
    )
    package var idleTimeout: String?

    @Option(
        name: .customLong("max-devices"),
        help:
            "The most devices served beside the default one; past it a new device is RESOURCE_EXHAUSTED (default 250; each open device holds a few files: raise `ulimit -n` with it; GLIMPSE_MAX_DEVICES)."
    )
    package var maxDevices: String?

    package init() {}

    /// Flags, then `environment` (the process's by default), for service-specific
    /// settings too (`source().address("timeline-address", timeline)`).
    package func source(environment: [String: String]? = nil) -> ConfigSource {
        ConfigSource(environment: environment ?? ProcessEnvironment.current)
    }

    /// Every setting, validated, with defaults for what was not given.
    package func resolve(
        service: String, defaults: ServiceConfig? = nil, environment: [String: String]? = nil
    ) throws(ConfigError) -> ServiceConfig {
        let source = self.source(environment: environment)
        let defaults = defaults ?? ServiceConfig.defaults(service: service)
        let clockKind = try source.value(
            "clock", clock, expected: "system or manual", default: ServiceConfig.ClockKind.system,
            parse: ServiceConfig.ClockKind.init(rawValue:))
        let start = try source.optional(
            "start-time", startTime, expected: "an ISO 8601 instant such as 2026-01-01T09:00:00Z",
            parse: ISO8601.parse)
        let clock: ServiceConfig.Clock
        switch (clockKind, start) {
        case (.system, nil): clock = .system
        case (.system, .some):
            let origin = source.raw("start-time", startTime)?.origin ?? ""
            throw ConfigError("--start-time: only with --clock manual (\(origin))")
        case (.manual, let start): clock = .manual(start: start ?? defaults.manualStart)
        }
        var config = ServiceConfig(
            service: service,
            host: try source.value("host", host, expected: "a host name or address", default: defaults.host) {
                $0.isEmpty || $0.contains(where: \.isWhitespace) ? nil : $0
            },
            port: try source.value(
                "port", port, expected: "a port number 0...65535", default: defaults.port,
                parse: ConfigSource.port),
            dataDirectory: try source.value(
                "data-dir", dataDir, expected: "a directory", default: defaults.dataDirectory
            ) {
                $0.isEmpty ? nil : $0
            },
            clock: clock,
            logFormat: try source.value(
                "log-format", logFormat, expected: "text or json", default: defaults.logFormat,
                parse: LogFormat.init(rawValue:)),
            logLevel: try source.value(
                "log-level", logLevel, expected: "trace, debug, info, notice, warning, error or critical",
                default: defaults.logLevel, parse: LogLevelName.parse),
            metricsPort: try source.optional(
                "metrics-port", metricsPort, expected: "a port number 0...65535",
                parse: ConfigSource.port) ?? defaults.metricsPort)
        config.deviceKey = try source.deviceKey(deviceKey)
        config.idleTimeout = try source.value(
            "idle-timeout", idleTimeout, expected: "seconds, 0 (never) or more", default: defaults.idleTimeout,
            parse: ConfigSource.timeout)
        config.maxDevices = try source.value(
            "max-devices", maxDevices, expected: "a number of devices, 0 to \(ServiceConfig.largestMaxDevices)",
            default: config.maxDevices
        ) { Int($0).flatMap { (0...ServiceConfig.largestMaxDevices).contains($0) ? $0 : nil } }
        return config
    }
}
