import ArgumentParser
import GlimpseMessages

/// `--family systemSmall|…`.
struct FamilyArgument: ExpressibleByArgument, Sendable {
    var family: GlimpseWidgetV1.WidgetFamily

    init?(argument: String) {
        guard let family = try? FamilyName.parse(argument) else { return nil }
        self.family = family
    }

    static var allValueStrings: [String] { FamilyName.all.map(\.name) }
}

/// `--screen home|lock`.
struct ScreenArgument: ExpressibleByArgument, Sendable {
    var screen: GlimpseTimelineV1.Screen

    init?(argument: String) {
        guard let screen = try? ScreenName.parse(argument) else { return nil }
        self.screen = screen
    }

    static var allValueStrings: [String] { ["home", "lock"] }
}

/// `on|off` (also true/false).
struct Switch: ExpressibleByArgument, Sendable {
    var isOn: Bool

    init?(argument: String) {
        switch argument.lowercased() {
        case "on", "true", "yes", "1": isOn = true
        case "off", "false", "no", "0": isOn = false
        default: return nil
        }
    }

    static var allValueStrings: [String] { ["on", "off"] }
}

/// `true|false`.
struct BoolArgument: ExpressibleByArgument, Sendable {
    var value: Bool

    init?(argument: String) {
        guard let value = Switch(argument: argument)?.isOn else { return nil }
        self.value = value
    }

    static var allValueStrings: [String] { ["true", "false"] }
}

/// A placement id.
typealias PlacementID = UInt64
