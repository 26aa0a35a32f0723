package import GlimpseJSON

// The shared half of the proto3 JSON mapping (ProtoJSON.swift): what the generated
// `protoJSONValue()` and `init(protoJSONValue:path:ignoringUnknownFields:)` of every
// message call. The generated code names each field once (a writer call, a reader case);
// everything a field's type decides (number or string, base64, enum names, map keys,
// presence) lives here, once per Swift type.

/// A value one field can hold, one element of a repeated field, or one map value: a
/// scalar, `[UInt8]` (bytes), a generated enum or a generated message.
package protocol _ProtoJSONField {
    /// The canonical JSON of this value.
    var _protoJSON: JSONValue { get }
    /// Whether a singular field without presence holding this value is left out of the JSON.
    var _protoJSONIsDefault: Bool { get }
    /// Reads one value. `nil` only for an enum name this schema does not know while
    /// unknown fields are ignored (the field is then left as it was, as protobuf's own
    /// parsers do).
    static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _ ignoringUnknownFields: Bool
    ) throws(ProtoJSONError) -> Self?
}

/// A map key type: JSON object keys are strings, whatever the key's proto type.
package protocol _ProtoJSONMapKey: Hashable {
    var _protoJSONKey: String { get }
    static func _protoJSONKey(_ key: String, _ path: @autoclosure () -> String) throws(ProtoJSONError) -> Self
    /// The order map entries are written in (protobuf leaves it open; this makes the
    /// output deterministic): numeric for integers, `false` before `true`, strings by
    /// code point.
    static func _protoJSONKeyPrecedes(_ a: Self, _ b: Self) -> Bool
}

// MARK: - Messages and enums

extension _ProtoJSONField where Self: ProtoJSONMessage {
    package var _protoJSON: JSONValue { protoJSONValue() }
    package var _protoJSONIsDefault: Bool { false }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _ ignoringUnknownFields: Bool
    ) throws(ProtoJSONError) -> Self? {
        try Self(protoJSONValue: value, path: path(), ignoringUnknownFields: ignoringUnknownFields)
    }
}

/// A generated enum: its values' names, from the generated table.
package protocol _ProtoJSONEnum: _ProtoJSONField, RawRepresentable where RawValue == Int32 {
    init(rawValue: Int32)
    static var _protoJSONNames: _ProtoJSONEnumNames { get }
}

/// An enum's value names, from its generated table: `"NAME=number NAME=number ..."` in
/// declaration order (an alias's number prints as its first name).
package struct _ProtoJSONEnumNames: Sendable {
    package let enumName: String
    let nameOf: [Int32: String]
    let numberOf: [String: Int32]

    package init(_ enumName: String, _ table: StaticString) {
        self.enumName = enumName
        var nameOf: [Int32: String] = [:]
        var numberOf: [String: Int32] = [:]
        for entry in "\(table)".split(separator: " ") {
            let parts = entry.split(separator: "=")
            precondition(parts.count == 2, "malformed enum table of \(enumName)")
            let name = String(parts[0])
            let number = Int32(parts[1])!
            numberOf[name] = number
            if nameOf[number] == nil { nameOf[number] = name }
        }
        self.nameOf = nameOf
        self.numberOf = numberOf
    }

    /// The value's name (its first, for an alias), nil for a number the schema does not know.
    package func name(of number: Int32) -> String? { nameOf[number] }

    /// The number of the value named `name`, nil for a name the enum does not have.
    package func number(named name: String) -> Int32? { numberOf[name] }
}

extension _ProtoJSONEnum {
    package var _protoJSON: JSONValue {
        if let name = Self._protoJSONNames.nameOf[rawValue] { return .string(name) }
        return .number(String(rawValue))  // a value this schema does not know: its number
    }

    package var _protoJSONIsDefault: Bool { rawValue == 0 }

    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _ ignoringUnknownFields: Bool
    ) throws(ProtoJSONError) -> Self? {
        switch value {
        case .string(let name):
            if let number = _protoJSONNames.numberOf[name] { return Self(rawValue: number) }
            if let n = _ProtoJSONNumbers.integer(name, Int32.self) { return Self(rawValue: n) }
            if ignoringUnknownFields { return nil }
            throw ProtoJSONError(
                path: path(), reason: "\(_ProtoJSONNumbers.quoted(name)) is not a value of \(_protoJSONNames.enumName)")
        case .number(let literal):
            guard let n = _ProtoJSONNumbers.integer(literal, Int32.self) else {
                throw ProtoJSONError(
                    path: path(), reason: "\(literal) is not an enum number (\(_protoJSONNames.enumName), int32)")
            }
            return Self(rawValue: n)
        default:
            throw ProtoJSONError(
                path: path(),
                reason: "expected an enum name or number (\(_protoJSONNames.enumName)), found \(value.protoJSONKind)")
        }
    }
}

// MARK: - Scalars

extension Int32: _ProtoJSONField, _ProtoJSONMapKey {
    package var _protoJSON: JSONValue { .number(String(self)) }
    package var _protoJSONIsDefault: Bool { self == 0 }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        try _ProtoJSONNumbers.read(value, path(), "int32")
    }
    package var _protoJSONKey: String { String(self) }
    package static func _protoJSONKey(_ key: String, _ path: @autoclosure () -> String) throws(ProtoJSONError) -> Self {
        try _ProtoJSONNumbers.read(.string(key), path(), "int32")
    }
    package static func _protoJSONKeyPrecedes(_ a: Self, _ b: Self) -> Bool { a < b }
}

extension UInt32: _ProtoJSONField, _ProtoJSONMapKey {
    package var _protoJSON: JSONValue { .number(String(self)) }
    package var _protoJSONIsDefault: Bool { self == 0 }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        try _ProtoJSONNumbers.read(value, path(), "uint32")
    }
    package var _protoJSONKey: String { String(self) }
    package static func _protoJSONKey(_ key: String, _ path: @autoclosure () -> String) throws(ProtoJSONError) -> Self {
        try _ProtoJSONNumbers.read(.string(key), path(), "uint32")
    }
    package static func _protoJSONKeyPrecedes(_ a: Self, _ b: Self) -> Bool { a < b }
}

/// 64-bit integers are strings in JSON (a double cannot hold them all).
extension Int64: _ProtoJSONField, _ProtoJSONMapKey {
    package var _protoJSON: JSONValue { .string(String(self)) }
    package var _protoJSONIsDefault: Bool { self == 0 }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        try _ProtoJSONNumbers.read(value, path(), "int64")
    }
    package var _protoJSONKey: String { String(self) }
    package static func _protoJSONKey(_ key: String, _ path: @autoclosure () -> String) throws(ProtoJSONError) -> Self {
        try _ProtoJSONNumbers.read(.string(key), path(), "int64")
    }
    package static func _protoJSONKeyPrecedes(_ a: Self, _ b: Self) -> Bool { a < b }
}

extension UInt64: _ProtoJSONField, _ProtoJSONMapKey {
    package var _protoJSON: JSONValue { .string(String(self)) }
    package var _protoJSONIsDefault: Bool { self == 0 }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        try _ProtoJSONNumbers.read(value, path(), "uint64")
    }
    package var _protoJSONKey: String { String(self) }
    package static func _protoJSONKey(_ key: String, _ path: @autoclosure () -> String) throws(ProtoJSONError) -> Self {
        try _ProtoJSONNumbers.read(.string(key), path(), "uint64")
    }
    package static func _protoJSONKeyPrecedes(_ a: Self, _ b: Self) -> Bool { a < b }
}

extension Bool: _ProtoJSONField, _ProtoJSONMapKey {
    package var _protoJSON: JSONValue { .bool(self) }
    package var _protoJSONIsDefault: Bool { !self }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        guard case .bool(let b) = value else {
            throw ProtoJSONError(path: path(), reason: "expected true or false, found \(value.protoJSONKind)")
        }
        return b
    }
    package var _protoJSONKey: String { self ? "true" : "false" }
    package static func _protoJSONKey(_ key: String, _ path: @autoclosure () -> String) throws(ProtoJSONError) -> Self {
        switch key {
        case "true": return true
        case "false": return false
        default:
            throw ProtoJSONError(
                path: path(),
                reason: "a bool map key must be \"true\" or \"false\", not \(_ProtoJSONNumbers.quoted(key))")
        }
    }
    package static func _protoJSONKeyPrecedes(_ a: Self, _ b: Self) -> Bool { !a && b }
}

/// A string holding U+0000 (`"\\u0000"` in JSON) is refused, as the protobuf side refuses
/// it: C code downstream would read the text as ending there.
extension String: _ProtoJSONField, _ProtoJSONMapKey {
    package var _protoJSON: JSONValue { .string(self) }
    package var _protoJSONIsDefault: Bool { isEmpty }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        guard case .string(let s) = value else {
            throw ProtoJSONError(path: path(), reason: "expected a string, found \(value.protoJSONKind)")
        }
        try refuseNUL(s, path())
        return s
    }
    package var _protoJSONKey: String { self }
    package static func _protoJSONKey(_ key: String, _ path: @autoclosure () -> String) throws(ProtoJSONError) -> Self {
        try refuseNUL(key, path())
        return key
    }

    private static func refuseNUL(_ s: String, _ path: @autoclosure () -> String) throws(ProtoJSONError) {
        if s.utf8.contains(0) { throw ProtoJSONError(path: path(), reason: "text holding U+0000 (NUL) is refused") }
    }
    package static func _protoJSONKeyPrecedes(_ a: Self, _ b: Self) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}

extension Double: _ProtoJSONField {
    package var _protoJSON: JSONValue { _ProtoJSONNumbers.json(self) }
    /// `-0.0` is not the default (its bits are not zero): it is written, as protobuf does.
    package var _protoJSONIsDefault: Bool { bitPattern == 0 }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        try _ProtoJSONNumbers.double(value, path(), float: false)
    }
}

extension Float: _ProtoJSONField {
    package var _protoJSON: JSONValue { _ProtoJSONNumbers.json(self) }
    package var _protoJSONIsDefault: Bool { bitPattern == 0 }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        Float(try _ProtoJSONNumbers.double(value, path(), float: true))
    }
}

/// `bytes`: standard base64 with padding out; standard or URL-safe, padded or not, in.
extension Array: _ProtoJSONField where Element == UInt8 {
    package var _protoJSON: JSONValue { .string(_ProtoJSONBase64.encode(self)) }
    package var _protoJSONIsDefault: Bool { isEmpty }
    package static func _protoJSONRead(
        _ value: JSONValue, _ path: @autoclosure () -> String, _: Bool
    ) throws(ProtoJSONError) -> Self? {
        guard case .string(let s) = value else {
            throw ProtoJSONError(path: path(), reason: "expected a base64 string (bytes), found \(value.protoJSONKind)")
        }
        guard let bytes = _ProtoJSONBase64.decode(s) else {
            throw ProtoJSONError(path: path(), reason: "\(_ProtoJSONNumbers.quoted(s)) is not valid base64")
        }
        return bytes
    }
}

// MARK: - Writing

/// Builds one message's JSON object, member by member, in field-number order (the
/// generated `protoJSONValue()` calls it once per field).
package struct _ProtoJSONWriter {
    package var members: [JSONMember] = []

    package init() {}

    package var value: JSONValue { .object(members) }

    /// A singular field without presence: left out at its default.
    package mutating func field<T: _ProtoJSONField>(_ name: String, _ value: T) {
        if !value._protoJSONIsDefault { members.append(JSONMember(name, value._protoJSON)) }
    }

    /// A field with presence (a message field, a proto3 `optional` field): written when
    /// set, even at its default.
    package mutating func optional<T: _ProtoJSONField>(_ name: String, _ value: T?) {
        if let value { members.append(JSONMember(name, value._protoJSON)) }
    }

    /// A set member of a oneof: always written.
    package mutating func member<T: _ProtoJSONField>(_ name: String, _ value: T) {
        members.append(JSONMember(name, value._protoJSON))
    }

    package mutating func repeated<T: _ProtoJSONField>(_ name: String, _ values: [T]) {
        if !values.isEmpty { members.append(JSONMember(name, .array(values.map(\._protoJSON)))) }
    }

    package mutating func map<K: _ProtoJSONMapKey, V: _ProtoJSONField>(_ name: String, _ map: [K: V]) {
        guard !map.isEmpty else { return }
        let entries = map.sorted { K._protoJSONKeyPrecedes($0.key, $1.key) }
        members.append(JSONMember(name, .object(entries.map { JSONMember($0.key._protoJSONKey, $0.value._protoJSON) })))
    }
}

// MARK: - Reading

/// A message's fields by JSON name and proto name, from the generated table:
/// `"number,jsonName,protoName[,oneof] ..."` (one entry per field; the oneof's name for
/// members of a real oneof).
package struct _ProtoJSONFieldTable: Sendable {
    package let messageName: String
    let numbers: [Int32]
    let jsonNames: [String]
    /// The oneof each field belongs to (an index into `oneofNames`), or -1.
    let oneofs: [Int]
    let oneofNames: [String]
    let byName: [String: Int]

    package init(_ messageName: String, _ table: StaticString) {
        self.messageName = messageName
        var numbers: [Int32] = []
        var jsonNames: [String] = []
        var oneofs: [Int] = []
        var oneofNames: [String] = []
        var byName: [String: Int] = [:]
        for entry in "\(table)".split(separator: " ") {
            let parts = entry.split(separator: ",").map(String.init)
            precondition(parts.count == 3 || parts.count == 4, "malformed JSON field table of \(messageName)")
            let index = numbers.count
            numbers.append(Int32(parts[0])!)
            jsonNames.append(parts[1])
            byName[parts[1]] = index
            byName[parts[2]] = index
            if parts.count == 4 {
                if let o = oneofNames.firstIndex(of: parts[3]) {
                    oneofs.append(o)
                } else {
                    oneofs.append(oneofNames.count)
                    oneofNames.append(parts[3])
                }
            } else {
                oneofs.append(-1)
            }
        }
        self.numbers = numbers
        self.jsonNames = jsonNames
        self.oneofs = oneofs
        self.oneofNames = oneofNames
        self.byName = byName
    }
}

/// Walks one JSON object as a message: `next()` gives each member's field number (after
/// the checks every field shares: known name, not given twice, one member per oneof,
/// `null` as the default), and the `read` methods decode its value into a field.
package struct _ProtoJSONReader {
    let members: [JSONMember]
    let path: String
    let table: _ProtoJSONFieldTable
    let ignoringUnknownFields: Bool
    var position = 0
    /// The key each field was given under, once seen.
    var seen: [String?]
    /// The key of the member that set each oneof.
    var oneofKeys: [String?]
    var key = ""
    var current: JSONValue = .null

    package init(
        _ value: JSONValue, _ path: String, _ table: _ProtoJSONFieldTable, _ ignoringUnknownFields: Bool
    ) throws(ProtoJSONError) {
        guard case .object(let members) = value else {
            throw ProtoJSONError(
                path: path, reason: "expected an object (\(table.messageName)), found \(value.protoJSONKind)")
        }
        self.members = members
        self.path = path
        self.table = table
        self.ignoringUnknownFields = ignoringUnknownFields
        seen = Array(repeating: nil, count: table.numbers.count)
        oneofKeys = Array(repeating: nil, count: table.oneofNames.count)
    }

    /// The path of the member being read.
    package var memberPath: String { path.isEmpty ? key : "\(path).\(key)" }

    /// The next member's field number; nil at the end of the object. Members whose value
    /// is `null` leave their field at its default and are not returned (but count as
    /// given: the same field may not follow under its other name).
    package mutating func next() throws(ProtoJSONError) -> Int32? {
        while position < members.count {
            let member = members[position]
            position += 1
            key = member.key
            guard let index = table.byName[member.key] else {
                if ignoringUnknownFields { continue }
                throw ProtoJSONError(path: memberPath, reason: "no such field in \(table.messageName)")
            }
            if let earlier = seen[index] {
                throw ProtoJSONError(
                    path: memberPath,
                    reason: earlier == member.key
                        ? "field given twice" : "field given twice (also as \(_ProtoJSONNumbers.quoted(earlier)))")
            }
            seen[index] = member.key
            if case .null = member.value { continue }
            let oneof = table.oneofs[index]
            if oneof >= 0 {
                if let other = oneofKeys[oneof] {
                    throw ProtoJSONError(
                        path: memberPath,
                        reason:
                            "oneof \(table.oneofNames[oneof]) is already set (by \(_ProtoJSONNumbers.quoted(other)))")
                }
                oneofKeys[oneof] = member.key
            }
            current = member.value
            return table.numbers[index]
        }
        return nil
    }

    /// The current member's value; nil for an unknown enum name while ignoring unknown fields.
    package func value<T: _ProtoJSONField>(_: T.Type = T.self) throws(ProtoJSONError) -> T? {
        try T._protoJSONRead(current, memberPath, ignoringUnknownFields)
    }

    /// A singular field (without presence).
    package func read<T: _ProtoJSONField>(_ field: inout T) throws(ProtoJSONError) {
        if let v = try T._protoJSONRead(current, memberPath, ignoringUnknownFields) { field = v }
    }

    /// A field with presence.
    package func readOptional<T: _ProtoJSONField>(_ field: inout T?) throws(ProtoJSONError) {
        if let v = try T._protoJSONRead(current, memberPath, ignoringUnknownFields) { field = v }
    }

    package func readRepeated<T: _ProtoJSONField>(_ field: inout [T]) throws(ProtoJSONError) {
        guard case .array(let items) = current else {
            throw ProtoJSONError(path: memberPath, reason: "expected an array, found \(current.protoJSONKind)")
        }
        let path = memberPath
        var out: [T] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            if case .null = item {
                throw ProtoJSONError(path: "\(path)[\(i)]", reason: "null is not allowed in a repeated field")
            }
            if let v = try T._protoJSONRead(item, "\(path)[\(i)]", ignoringUnknownFields) { out.append(v) }
        }
        field = out
    }

    package func readMap<K: _ProtoJSONMapKey, V: _ProtoJSONField>(_ field: inout [K: V]) throws(ProtoJSONError) {
        guard case .object(let entries) = current else {
            throw ProtoJSONError(path: memberPath, reason: "expected an object (a map), found \(current.protoJSONKind)")
        }
        let path = memberPath
        var out: [K: V] = [:]
        out.reserveCapacity(entries.count)
        for entry in entries {
            let entryPath = "\(path)[\(_ProtoJSONNumbers.quoted(entry.key))]"
            let key = try K._protoJSONKey(entry.key, entryPath)
            guard out[key] == nil else { throw ProtoJSONError(path: entryPath, reason: "map key given twice") }
            if case .null = entry.value {
                throw ProtoJSONError(path: entryPath, reason: "null is not allowed as a map value")
            }
            if let v = try V._protoJSONRead(entry.value, entryPath, ignoringUnknownFields) { out[key] = v }
        }
        field = out
    }

    /// A message without fields: an object, with no members unless they are ignored.
    package static func readEmpty(
        _ value: JSONValue, _ path: String, _ table: _ProtoJSONFieldTable, _ ignoringUnknownFields: Bool
    ) throws(ProtoJSONError) {
        var reader = try _ProtoJSONReader(value, path, table, ignoringUnknownFields)
        while try reader.next() != nil {}
    }
}

extension JSONValue {
    /// What kind of JSON value this is, for error messages.
    var protoJSONKind: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let literal): "the number \(literal)"
        case .string(let s): "the string \(_ProtoJSONNumbers.quoted(s))"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
