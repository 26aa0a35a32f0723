package import Foundation
package import Testing

/// A folder of golden files, compared byte for byte; `GLIMPSE_UPDATE_GOLDEN=1 swift test …`
/// rewrites them instead (review the diff as pictures before committing).
package struct GoldenFolder: Sendable {
    package let directory: URL
    package static let updating = ProcessInfo.processInfo.environment["GLIMPSE_UPDATE_GOLDEN"] == "1"

    /// The `Golden` folder beside the test file that names it (pass `#filePath`).
    package init(besides file: String) {
        directory = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    package func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if Self.updating {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(
            actual == expected, "\(name) differs from its golden; GLIMPSE_UPDATE_GOLDEN=1 rewrites it",
            sourceLocation: sourceLocation)
    }
}

/// Compact proto3 JSON laid out one member a line, two spaces a level, so a golden's diff
/// names the field that moved. Strings pass through untouched.
package enum PrettyJSON {
    package static func format(_ bytes: [UInt8]) -> String {
        var out = ""
        var depth = 0
        var inString = false
        var escaped = false
        func newline() { out += "\n" + String(repeating: "  ", count: depth) }
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if inString {
                out.unicodeScalars.append(scalar)
                if escaped {
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    inString = false
                }
                continue
            }
            switch scalar {
            case "\"":
                inString = true
                out += "\""
            case "{", "[":
                depth += 1
                out.unicodeScalars.append(scalar)
                newline()
            case "}", "]":
                depth -= 1
                newline()
                out.unicodeScalars.append(scalar)
            case ",":
                out += ","
                newline()
            case ":": out += ": "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\n"
    }
}
