public import GlimpseJSON

/// A message with proto3's canonical JSON mapping (protobuf.dev/programming-guides/json):
/// the encoding scripts and HTTP clients use at the gateway.
///
/// Every message type generated from `Proto/` conforms; the conversions are generated
/// field by field (no reflection, no hand-written per-message JSON).
///
/// Encoding (what Python's `json_format.MessageToJson` writes with default options):
/// - field names in lowerCamelCase (`json_name`); fields at their default are left out,
///   except proto3 `optional` fields and oneof members that are set;
/// - 64-bit integers as strings, `bytes` as standard base64, enums by value name
///   (an unknown number as the number), NaN/Infinity as `"NaN"`/`"Infinity"`/`"-Infinity"`;
/// - maps as objects (keys as strings), repeated fields as arrays;
/// - `google.protobuf.Timestamp` as RFC 3339 in UTC (`Z`, 0/3/6/9 fraction digits),
///   `google.protobuf.Duration` as seconds with an `s` suffix.
///
/// Decoding accepts what proto3 JSON parsers must accept: lowerCamel and original field
/// names, `null` as the default, enum names or numbers, integers as numbers or strings
/// (exact; `1.0` and `1e2` where integral), any base64 (standard or URL-safe, padded or
/// not), and refuses duplicate fields, unknown fields (unless told to ignore them),
/// values out of range and a second member of one oneof.
public protocol ProtoJSONMessage: GlimpseMessage {
    /// The canonical JSON value of this message (always an object, or for the well-known
    /// types that map to a string, a string).
    func protoJSONValue() -> JSONValue

    /// Reads the message from a parsed JSON value. `path` names where the value sits in
    /// the whole document, for error messages (e.g. `placement.configuration["city"]`).
    init(protoJSONValue value: JSONValue, path: String, ignoringUnknownFields: Bool) throws(ProtoJSONError)
}

extension ProtoJSONMessage {
    /// The compact canonical JSON text (UTF-8).
    public func jsonBytes() -> [UInt8] {
        protoJSONValue().serialized()
    }

    /// Parses JSON text; an empty input (or only whitespace) is the empty message, as an
    /// empty HTTP request body is an empty request.
    public init(jsonBytes bytes: [UInt8], ignoringUnknownFields: Bool = false) throws(ProtoJSONError) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            self.init()
            return
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw ProtoJSONError(path: "", reason: error.description)
        }
        try self.init(protoJSONValue: value, path: "", ignoringUnknownFields: ignoringUnknownFields)
    }
}

/// Why JSON could not be read as a message: where (a field path) and what was wrong.
public struct ProtoJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field's path from the top message (`""` for the document itself).
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
