#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseVocabulary
package import GlimpseMessages

/// App Intent parameter values on the wire (`glimpse.widget.v1.ParameterValue`) and in the engines.
extension TypedValue {
    /// The value a wire value holds; `InvalidField` when it holds none or a bad date.
    package init(_ wire: GlimpseWidgetV1.ParameterValue, field: String) throws(InvalidField) {
        switch wire.kind {
        case .stringValue(let s)?: self = .string(s)
        case .intValue(let n)?: self = .int(n)
        case .doubleValue(let x)?: self = .double(x)
        case .boolValue(let b)?: self = .bool(b)
        case .dateValue(let t)?: self = .date(try t.date(field: field + ".date_value"))
        case .bytesValue(let b)?: self = .bytes(b)
        case nil: throw InvalidField(field, "a value is required")
        }
    }

    package var wire: GlimpseWidgetV1.ParameterValue {
        var value = GlimpseWidgetV1.ParameterValue()
        switch self {
        case .string(let s): value.kind = .stringValue(s)
        case .int(let n): value.kind = .intValue(n)
        case .double(let x): value.kind = .doubleValue(x)
        case .bool(let b): value.kind = .boolValue(b)
        case .date(let d): value.kind = .dateValue(GoogleProtobuf.Timestamp(d))
        case .bytes(let b): value.kind = .bytesValue(b)
        }
        return value
    }

    /// A map of wire values (a configuration, a tap's parameters), each checked.
    package static func map(
        _ wire: [String: GlimpseWidgetV1.ParameterValue], field: String
    ) throws(InvalidField) -> [String: TypedValue] {
        var out: [String: TypedValue] = [:]
        for (key, value) in wire { out[key] = try TypedValue(value, field: "\(field)[\"\(key)\"]") }
        return out
    }
}

extension ValueType {
    package init(_ wire: GlimpseAppV1.ValueType, field: String) throws(InvalidField) {
        switch wire {
        case .string: self = .string
        case .int: self = .int
        case .double: self = .double
        case .bool: self = .bool
        case .date: self = .date
        case .bytes: self = .bytes
        case .unspecified: throw InvalidField(field, "a value type is required")
        case .unrecognized(let n): throw InvalidField(field, "unknown value type \(n)")
        }
    }
}

extension IntentParameter {
    /// An `@Parameter` declaration; its default, when given, must have the declared type.
    package init(_ wire: GlimpseAppV1.ParameterDeclaration, field: String) throws(InvalidField) {
        guard !wire.name.isEmpty else { throw InvalidField(field + ".name", "a parameter name is required") }
        let type = try ValueType(wire.type, field: field + ".type")
        let defaultValue = try wire.defaultValue.map { v throws(InvalidField) in
            try TypedValue(v, field: field + ".default_value")
        }
        if let defaultValue, defaultValue.type != type {
            throw InvalidField(
                field + ".default_value", "is \(defaultValue.type.rawValue), the parameter is \(type.rawValue)")
        }
        self.init(name: wire.name, type: type, defaultValue: defaultValue)
    }
}
