#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import Logging

/// One line per record, for people:
///
///     2026-01-01T09:00:00.000Z info timeline: opened store=/data
package struct TextLogHandler: LogHandler {
    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: LogOutput
    private let now: @Sendable () -> Date

    package init(
        label: String, level: Logger.Level = .info, output: LogOutput = .standardError,
        metadataProvider: Logger.MetadataProvider? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.label = label
        self.logLevel = level
        self.output = output
        self.metadataProvider = metadataProvider
        self.now = now
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var line = "\(ISO8601.format(now())) \(event.level.rawValue) \(label): \(event.message)"
        let all = LogMetadataMerge.merged(metadata, metadataProvider, event.metadata)
        for key in all.keys.sorted() { line += " \(key)=\(all[key]!)" }
        output.write(line)
    }
}
