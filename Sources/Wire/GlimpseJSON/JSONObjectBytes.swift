/// A JSON object kept as its encoded bytes: a content state or a set of attributes.
///
/// Invariant: `bytes` always parse as one JSON object (with `JSONParser`, so nested at
/// most `JSONParser.maximumDepth` deep). The engine never needs the
/// fields, only the size (the 4 KB rule) and the bytes to hand on, so it stores the
/// encoding it was given (app requests) or its compact re-encoding (pushes).
public struct JSONObjectBytes: Sendable, Hashable {
    public let bytes: [UInt8]

    public enum Error: Swift.Error, Equatable, Sendable {
        case invalidJSON(JSONParser.Error)
        case notAnObject
    }

    /// Checks that `bytes` are one JSON object and keeps them as given.
    public init(validating bytes: [UInt8]) throws(Error) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .invalidJSON(error) }
        guard value.isObject else { throw .notAnObject }
        self.bytes = bytes
    }

    /// The compact encoding of `value`, which must be an object; afterwards
    /// `self.value == value`. The encoding is parsed once to keep both invariants for
    /// values built in code: nesting past `JSONParser.maximumDepth`, or a `.number`
    /// literal that is not exactly one JSON number, is `invalidJSON`.
    public init(_ value: JSONValue) throws(Error) {
        guard value.isObject else { throw .notAnObject }
        let bytes = value.serialized()
        let parsed: JSONValue
        do { parsed = try JSONParser.parse(bytes) } catch { throw .invalidJSON(error) }
        guard parsed == value else {
            let offset = zip(bytes, parsed.serialized()).prefix(while: { $0 == $1 }).count
            throw .invalidJSON(JSONParser.Error(offset: offset, reason: "a number literal is not one JSON number"))
        }
        self.bytes = bytes
    }

    /// The compact encoding of `value`, an object `JSONParser` produced (or a part of a
    /// document it parsed): such a value keeps both invariants already, so it is not parsed
    /// again (a push's content state, on every push). Throws only `notAnObject`.
    public init(parsed value: JSONValue) throws(Error) {
        guard value.isObject else { throw .notAnObject }
        bytes = value.serialized()
    }

    /// The empty object `{}`.
    public static let empty = JSONObjectBytes(trusted: Array("{}".utf8))

    init(trusted bytes: [UInt8]) { self.bytes = bytes }

    public var count: Int { bytes.count }

    /// The decoded value (parses again; for callers that need the fields).
    public var value: JSONValue { (try? JSONParser.parse(bytes)) ?? .object([]) }
}

/// Decoded as it is made: the bytes are checked to be one JSON object.
extension JSONObjectBytes: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(validating: try decoder.singleValueContainer().decode([UInt8].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytes)
    }
}
