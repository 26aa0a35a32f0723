#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A typed value: an intent parameter, or a value in the App Group store.
public enum TypedValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case bytes([UInt8])

    public var type: ValueType {
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
public enum ValueType: String, Sendable, Hashable, CaseIterable {
    case string, int, double, bool, date, bytes
}
