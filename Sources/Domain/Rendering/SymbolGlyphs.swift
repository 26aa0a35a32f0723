#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// SF Symbols drawn as recognisable glyphs: the seeds' symbols and the most common ones,
/// each mapped by name to an icon of Bootstrap Icons (MIT), which Debian packages as
/// `bootstrap-icons` (`/usr/share/bootstrap-icons/svg`, or `GLIMPSE_SYMBOLS_DIR`). The SF
/// name stays the symbol's accessible label; a name not mapped, or an icon set not
/// installed, is drawn as the labelled box it was before.
enum SymbolGlyphs {
    /// SF Symbol name → Bootstrap Icons name.
    static let names: [String: String] = [
        // The seeds'.
        "film": "film", "timer": "stopwatch", "person.crop.circle": "person-circle", "house.fill": "house-fill",
        "checkmark.circle.fill": "check-circle-fill", "box.truck.badge.clock.fill": "truck",
        "bolt.fill": "lightning-fill", "bag": "bag", "play.fill": "play-fill", "pause.fill": "pause-fill",
        "airplane": "airplane-fill", "figure.walk": "activity",
        // Common ones.
        "house": "house", "person": "person", "person.fill": "person-fill", "person.circle": "person-circle",
        "heart": "heart", "heart.fill": "heart-fill", "star": "star", "star.fill": "star-fill",
        "calendar": "calendar", "clock": "clock", "clock.fill": "clock-fill", "alarm": "alarm",
        "hourglass": "hourglass-split", "bell": "bell", "bell.fill": "bell-fill", "gear": "gear",
        "gearshape": "gear", "gearshape.fill": "gear-fill", "sun.max": "sun", "sun.max.fill": "sun-fill",
        "moon": "moon", "moon.fill": "moon-fill", "cloud": "cloud", "cloud.fill": "cloud-fill",
        "cloud.sun.fill": "cloud-sun-fill", "cloud.rain.fill": "cloud-rain-fill", "snowflake": "snow",
        "umbrella.fill": "umbrella-fill", "thermometer": "thermometer-half", "drop.fill": "droplet-fill",
        "flame.fill": "fire", "bolt": "lightning", "location": "geo-alt", "location.fill": "geo-alt-fill",
        "map": "map", "phone": "telephone", "phone.fill": "telephone-fill", "envelope": "envelope",
        "envelope.fill": "envelope-fill", "magnifyingglass": "search", "plus": "plus", "minus": "dash",
        "xmark": "x", "checkmark": "check", "checkmark.circle": "check-circle", "xmark.circle.fill": "x-circle-fill",
        "chevron.right": "chevron-right", "chevron.left": "chevron-left", "chevron.up": "chevron-up",
        "chevron.down": "chevron-down", "arrow.clockwise": "arrow-clockwise", "arrow.right": "arrow-right",
        "arrow.left": "arrow-left", "battery.100": "battery-full", "wifi": "wifi", "music.note": "music-note",
        "cart": "cart", "cart.fill": "cart-fill", "gift": "gift", "trash": "trash", "pencil": "pencil",
        "lock": "lock", "lock.fill": "lock-fill", "bookmark": "bookmark", "bookmark.fill": "bookmark-fill",
        "flag": "flag", "flag.fill": "flag-fill", "car.fill": "car-front-fill", "bicycle": "bicycle",
        "bus": "bus-front", "tram.fill": "train-front", "cup.and.saucer.fill": "cup-hot-fill", "ticket": "ticket",
        "tv": "tv", "gamecontroller": "controller", "forward.fill": "fast-forward-fill",
        "backward.fill": "rewind-fill", "info.circle": "info-circle",
        "exclamationmark.triangle.fill": "exclamation-triangle-fill", "basket": "basket",
    ]

    /// Where the icons are read from.
    static let directory: String =
        ProcessInfo.processInfo.environment["GLIMPSE_SYMBOLS_DIR"] ?? "/usr/share/bootstrap-icons/svg"

    /// The icons' drawings: each mapped icon's elements (its paths), read once; an icon
    /// whose file is missing is left out.
    static let glyphs: [String: String] = {
        var found: [String: String] = [:]
        for (symbol, icon) in names {
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(icon).svg"),
                let text = String(data: data, encoding: .utf8), let body = inner(of: text)
            else { continue }
            found[symbol] = body
        }
        return found
    }()

    /// The elements between an icon file's `<svg …>` and `</svg>` (16×16 view box, drawn in
    /// the current colour); nil for anything else.
    static func inner(of svg: String) -> String? {
        guard let open = svg.firstRange(of: "<svg"), let openEnd = svg[open.upperBound...].firstIndex(of: ">"),
            let close = svg.ranges(of: "</svg>").last, openEnd < close.lowerBound,
            svg[open.lowerBound..<openEnd].contains("viewBox=\"0 0 16 16\"")
        else { return nil }
        let body = String(
            svg[svg.index(after: openEnd)..<close.lowerBound].drop(while: \.isWhitespace).reversed()
                .drop(while: \.isWhitespace).reversed())
        // Only drawing elements: an icon set is data, not markup to pass through.
        guard !body.contains("<script"), !body.contains("href"), !body.contains("<foreignObject") else { return nil }
        return body
    }

    /// The drawing of SF Symbol `name`, or nil.
    static func glyph(_ name: String) -> String? { glyphs[name] }
}
