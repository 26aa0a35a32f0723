#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An installed app, by bundle identifier.
public struct AppID: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// A widget an app declares: `StaticConfiguration` or `AppIntentConfiguration` with its
/// display name, description, supported families and (for the latter) `@Parameter`s.
public struct WidgetKind: Sendable, Hashable {
    public var kind: String
    public var displayName: String
    public var description: String
    public var supportedFamilies: Set<WidgetFamily>
    /// The `WidgetConfigurationIntent` parameters; empty for a static configuration.
    public var parameters: [ConfigurationParameter]

    public init(
        kind: String, displayName: String, description: String = "",
        supportedFamilies: Set<WidgetFamily>, parameters: [ConfigurationParameter] = []
    ) {
        self.kind = kind
        self.displayName = displayName
        self.description = description
        self.supportedFamilies = supportedFamilies
        self.parameters = parameters
    }
}

/// One user-editable setting of a configurable widget.
public struct ConfigurationParameter: Sendable, Hashable {
    public var name: String
    public var type: ConfigurationValue.ValueType
    /// Used when a placement does not set the parameter; nil leaves it unset.
    public var defaultValue: ConfigurationValue?

    public init(name: String, type: ConfigurationValue.ValueType, defaultValue: ConfigurationValue? = nil) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

/// A configuration value as the provider context carries it.
public enum ConfigurationValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case date(Date)

    public enum ValueType: String, Sendable, Hashable {
        case string, int, double, bool, date
    }

    public var type: ValueType {
        switch self {
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .date: .date
        }
    }
}
