package import Logging

/// The process's logging: `--log-format` and `--log-level`, to standard error.
package enum ServiceLogging {
    /// A handler factory for `format` (tests pass their own output).
    package static func makeHandler(
        format: LogFormat, level: Logger.Level, output: LogOutput = .standardError
    ) -> @Sendable (String) -> any LogHandler {
        switch format {
        case .text: { label in TextLogHandler(label: label, level: level, output: output) }
        case .json: { label in JSONLogHandler(label: label, level: level, output: output) }
        }
    }

    /// Bootstraps swift-log (once per process) and returns the service's logger.
    package static func bootstrap(_ config: ServiceConfig) -> Logger {
        LoggingSystem.bootstrap(makeHandler(format: config.logFormat, level: config.logLevel))
        return Logger(label: config.service)
    }
}
