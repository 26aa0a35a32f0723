/// A JSON value as it travels: content states, attributes and APNs bodies.
///
/// Invariants:
/// - Numbers keep the literal they were written with (`"12.50"` stays `12.50`), so a
///   content state passes through Glimpse without the precision loss or re-formatting
///   that made device-side decoding fail for app teams (spec §8 item 6).
/// - Object members keep their order; a duplicate key keeps the last value on lookup
///   (as Foundation's decoder does) but is serialized as written.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's literal text. The parser only produces literals that follow the JSON
    /// number grammar; one built in code must too (`JSONObjectBytes` checks).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// The member named `key` when this is an object (the last one if repeated).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The number as a Double, when this is a number.
    public var doubleValue: Double? {
        guard case .number(let literal) = self else { return nil }
        return Double(literal)
    }

    public var stringValue: String? {
        guard case .string(let s) = self else { return nil }
        return s
    }

    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// A number from a Swift integer or double (for building values in code).
    public static func number(_ value: Int) -> JSONValue { .number(String(value)) }
    /// A number from a double; JSON has no NaN or infinity, so those become `null` (as
    /// JavaScript's `JSON.stringify` does) rather than text no parser accepts.
    public static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        return value == value.rounded() && abs(value) < 1e15
            ? .number(String(Int64(value))) : .number(String(value))
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember($0.0, $0.1) })
    }
}
