package import GlimpseMessages

/// WidgetKit's names for widget families (`systemSmall`, …) and the screens.
package enum FamilyName {
    package static let all: [(name: String, family: GlimpseWidgetV1.WidgetFamily)] = [
        ("systemSmall", .systemSmall), ("systemMedium", .systemMedium), ("systemLarge", .systemLarge),
        ("systemExtraLarge", .systemExtraLarge), ("accessoryCircular", .accessoryCircular),
        ("accessoryRectangular", .accessoryRectangular), ("accessoryInline", .accessoryInline),
    ]

    package struct Unknown: Error, Hashable, Sendable, CustomStringConvertible {
        package var text: String
        package var description: String {
            "unknown widget family \"\(text)\"; expected one of " + FamilyName.all.map(\.name).joined(separator: ", ")
        }
    }

    /// The family for WidgetKit's name (any case; `.systemSmall` and the proto's
    /// `WIDGET_FAMILY_SYSTEM_SMALL` too).
    package static func parse(_ text: String) throws(Unknown) -> GlimpseWidgetV1.WidgetFamily {
        var key = text.trimmingCharacters(in: " ")
        if key.hasPrefix(".") { key.removeFirst() }
        key = key.lowercased()
        if key.hasPrefix("widget_family_") { key = String(key.dropFirst("widget_family_".count)) }
        key = key.replacingAll("_", with: "").replacingAll("-", with: "")
        guard let match = all.first(where: { $0.name.lowercased() == key }) else { throw Unknown(text: text) }
        return match.family
    }

    package static func name(_ family: GlimpseWidgetV1.WidgetFamily) -> String {
        if let match = all.first(where: { $0.family == family }) { return match.name }
        if case .unrecognized(let raw) = family { return "family(\(raw))" }
        return "unspecified"
    }
}

package enum ScreenName {
    package struct Unknown: Error, Hashable, Sendable, CustomStringConvertible {
        package var text: String
        package var description: String { "unknown screen \"\(text)\"; expected home or lock" }
    }

    package static func parse(_ text: String) throws(Unknown) -> GlimpseTimelineV1.Screen {
        switch text.lowercased() {
        case "home", "homescreen", "home-screen": .home
        case "lock", "lockscreen", "lock-screen": .lock
        default: throw Unknown(text: text)
        }
    }

    package static func name(_ screen: GlimpseTimelineV1.Screen) -> String {
        switch screen {
        case .home: "home"
        case .lock: "lock"
        case .unspecified: "unspecified"
        case .unrecognized(let raw): "screen(\(raw))"
        }
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
