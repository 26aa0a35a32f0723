#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import Logging

/// One JSON object per line, for tools:
///
///     {"timestamp":"2026-01-01T09:00:00.000Z","level":"info","label":"timeline","message":"opened","store":"/data"}
///
/// Metadata is flattened into the object (nested values as JSON); a metadata key that
/// collides with timestamp, level, label or message is written as `metadata.<key>`.
/// Errors and worse also carry `source` (the module that logged them).
package struct JSONLogHandler: LogHandler {
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
        var line = "{\"timestamp\":"
        JSONText.appendString(ISO8601.format(now()), to: &line)
        line += ",\"level\":"
        JSONText.appendString(event.level.rawValue, to: &line)
        line += ",\"label\":"
        JSONText.appendString(label, to: &line)
        line += ",\"message\":"
        JSONText.appendString(event.message.description, to: &line)
        let all = LogMetadataMerge.merged(metadata, metadataProvider, event.metadata)
        for key in all.keys.sorted() {
            let name = ["timestamp", "level", "label", "message"].contains(key) ? "metadata.\(key)" : key
            line += ","
            JSONText.appendString(name, to: &line)
            line += ":"
            JSONText.append(all[key]!, to: &line)
        }
        if event.level >= .error {
            // Where it came from, for the records worth tracing back.
            line += ",\"source\":"
            JSONText.appendString(event.source, to: &line)
        }
        line += "}"
        output.write(line)
    }
}

enum LogMetadataMerge {
    static func merged(
        _ handler: Logger.Metadata, _ provider: Logger.MetadataProvider?, _ event: Logger.Metadata?
    ) -> Logger.Metadata {
        var all = handler
        if let provider { all.merge(provider.get()) { _, new in new } }
        if let event { all.merge(event) { _, new in new } }
        return all
    }
}

/// Just enough JSON writing for log lines.
enum JSONText {
    static func append(_ value: Logger.MetadataValue, to out: inout String) {
        switch value {
        case .string(let string): appendString(string, to: &out)
        case .stringConvertible(let value): appendString(value.description, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                append(value, to: &out)
            }
            out += "]"
        case .dictionary(let values):
            out += "{"
            for (index, key) in values.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                appendString(key, to: &out)
                out += ":"
                append(values[key]!, to: &out)
            }
            out += "}"
        }
    }

    static func appendString(_ string: String, to out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
