import Foundation
import GlimpseMessages
import Rendering
import Testing

/// Goldens: the SVG, text and Layout JSON of a widget, a Live Activity and the screens,
/// byte for byte. `GLIMPSE_UPDATE_GOLDEN=1 swift test …` rewrites them.
@Suite struct GoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let updating = ProcessInfo.processInfo.environment["GLIMPSE_UPDATE_GOLDEN"] == "1"

    func check(_ name: String, _ actual: String) throws {
        let url = Self.directory.appendingPathComponent(name)
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "\(name) differs from its golden; GLIMPSE_UPDATE_GOLDEN=1 rewrites it")
    }

    @Test func weatherWidget() throws {
        let layout = renderer().view(Samples.weather, family: .systemMedium, bundleID: "com.example.weather")
        try check("weather-medium.svg", SVGWriter.document(layout))
        try check("weather-medium.txt", TextWriter.text(layout))
        try check("weather-medium.json", PrettyJSON.format(layout.jsonBytes()))
    }

    @Test func deliveryActivity() throws {
        let views = Samples.delivery(now: t0)
        let r = renderer()
        let expanded = r.activity(views, presentation: .expanded)
        try check("delivery-expanded.svg", SVGWriter.document(expanded))
        try check("delivery-expanded.json", PrettyJSON.format(expanded.jsonBytes()))
        try check("delivery-lockscreen.svg", SVGWriter.document(r.activity(views, presentation: .lockScreen)))
        try check("delivery-compact.txt", TextWriter.text(r.activity(views, presentation: .compact)))
    }

    @Test func screens() throws {
        let r = renderer()
        let screen = Samples.screen(now: t0)
        let views = ["pizza": Samples.delivery(now: t0)]
        try check("home-screen.svg", SVGWriter.document(r.homeScreen(screen)))
        try check("home-screen.txt", TextWriter.text(r.homeScreen(screen)))
        try check("lock-screen.svg", SVGWriter.document(renderer(dark: true).lockScreen(screen, views: views)))
        try check("dynamic-island.svg", SVGWriter.document(r.dynamicIsland(screen, views: views)))
    }
}

/// Indents compact JSON (two spaces, one member per line) so golden diffs read well.
enum PrettyJSON {
    static func format(_ bytes: [UInt8]) -> String {
        var out = ""
        var depth = 0
        var inString = false
        var escaped = false
        func newline() { out += "\n" + String(repeating: "  ", count: depth) }
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if inString {
                out.unicodeScalars.append(scalar)
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { inString = false }
                continue
            }
            switch scalar {
            case "\"": inString = true; out += "\""
            case "{", "[": depth += 1; out.unicodeScalars.append(scalar); newline()
            case "}", "]": depth -= 1; newline(); out.unicodeScalars.append(scalar)
            case ",": out += ","; newline()
            case ":": out += ": "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\n"
    }
}
