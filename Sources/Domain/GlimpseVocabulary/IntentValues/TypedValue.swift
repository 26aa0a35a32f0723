#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A typed value: an App Intent parameter's (an action intent's or a widget configuration
/// intent's), or a value in the App Group store.
package enum TypedValue: Sendable, Hashable, Codable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case bytes([UInt8])

    package var type: ValueType {
        switch self {
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .date: .date
        case .bytes: .bytes
        }
    }
}

/// The type of a `TypedValue`.
package enum ValueType: String, Sendable, Hashable, CaseIterable, Codable {
    case string, int, double, bool, date, bytes
}

/// An `@Parameter` of an App Intent: of an action intent (buttons, toggles) or of a widget's
/// configuration intent. Widgets do not prompt: a parameter without a default must come
/// with the tap or the placement.
package struct IntentParameter: Sendable, Hashable, Codable {
    package var name: String
    package var type: ValueType
    package var defaultValue: TypedValue?

    package init(name: String, type: ValueType, defaultValue: TypedValue? = nil) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}
