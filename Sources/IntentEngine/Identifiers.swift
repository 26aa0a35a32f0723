/// An installed app, by bundle identifier.
public struct AppID: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// An App Group (`group.net.insoc.rtlair`): a store shared by the apps that belong to it.
public struct GroupID: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// A widget placement, by the id the timeline service gave it. (The intent engine does
/// not depend on the timeline engine; the services map ids between the two.)
public struct PlacementID: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public init(integerLiteral value: UInt64) { rawValue = value }
    public var description: String { "P\(rawValue)" }
}

/// The family of the tapped widget, as WidgetKit names it (spec §2).
public enum WidgetFamily: String, Sendable, Hashable, CaseIterable {
    case systemSmall, systemMedium, systemLarge, systemExtraLarge
    case accessoryCircular, accessoryRectangular, accessoryInline

    /// Buttons and toggles work here (spec §3: "system S/M/L/XL, accessoryCircular/
    /// Rectangular"); `accessoryInline` has one tap target that only opens the app.
    public var isInteractive: Bool { self != .accessoryInline }
}
