#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import Logging

/// A service's settings once resolved and valid (see `ServiceOptions.resolve`).
package struct ServiceConfig: Sendable, Hashable {
    package enum ClockKind: String, Sendable, Hashable {
        case system, manual
    }

    package enum Clock: Sendable, Hashable {
        /// Real time.
        case system
        /// Time moves only when told, from `start`.
        case manual(start: Date)
    }

    package var service: String
    package var host: String
    /// 0: a free port, printed once bound.
    package var port: Int
    package var dataDirectory: String
    package var clock: Clock
    package var logFormat: LogFormat
    package var logLevel: Logger.Level
    /// Prometheus metrics over HTTP on this port (0: a free one); nil: off.
    package var metricsPort: Int?
    /// Device-scope calls must carry it (`authorization: Device <key>`; `DeviceKeyGate`),
    /// and the service sends it on its own calls to other services. nil: off (loopback).
    package var deviceKey: DeviceKey?
    /// How long in-flight calls may take to finish after SIGTERM before they are cancelled.
    package var shutdownGrace: Duration = .seconds(30)
    /// A connection without a call open this long is closed (`--idle-timeout`); nil: never.
    package var idleTimeout: Duration? = .seconds(300)
    /// The most devices served beside the default one (`DeviceTable`).
    package var maxDevices = ServiceConfig.defaultMaxDevices
    /// A busy shared stack's worth of CI jobs, within the default 1,024 open files: each open
    /// device holds its journal's files in every service (see docs/limits.md).
    package static let defaultMaxDevices = 250
    /// `--max-devices` at most: a process holds files for each (`DeviceTable.filesPerDevice`).
    package static let largestMaxDevices = 1_000_000
    /// Where a manual clock starts when `--start-time` is not given.
    package var manualStart: Date = Date(timeIntervalSince1970: 1_767_258_000)  // 2026-01-01T09:00:00Z

    package init(
        service: String, host: String, port: Int, dataDirectory: String, clock: Clock, logFormat: LogFormat,
        logLevel: Logger.Level, metricsPort: Int?
    ) {
        self.service = service
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.clock = clock
        self.logFormat = logFormat
        self.logLevel = logLevel
        self.metricsPort = metricsPort
    }

    /// Whether `host` is a loopback address or name: nobody else can connect.
    package var listensOnLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// 127.0.0.1, a free port, `./.glimpse/<service>`, the system clock, text logs at
    /// info, no metrics.
    package static func defaults(service: String) -> Self {
        Self(
            service: service, host: "127.0.0.1", port: 0, dataDirectory: "./.glimpse/\(service)", clock: .system,
            logFormat: .text, logLevel: .info, metricsPort: nil)
    }
}

/// How log records are written: `text` for people, `json` (one object per line) for tools.
package enum LogFormat: String, Sendable, Hashable, CaseIterable {
    case text, json
}

enum LogLevelName {
    static func parse(_ raw: String) -> Logger.Level? {
        Logger.Level(rawValue: raw.lowercased())
    }
}

/// ISO 8601 instants as flags, logs and the gateway print them.
package enum ISO8601 {
    /// `2026-01-01T09:00:00Z`, with or without fractional seconds, any offset.
    package static func parse(_ raw: String) -> Date? {
        if let date = try? Date(raw, strategy: .iso8601) { return date }
        return try? Date(raw, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    package static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

package enum ProcessEnvironment {
    package static var current: [String: String] { ProcessInfo.processInfo.environment }
}
