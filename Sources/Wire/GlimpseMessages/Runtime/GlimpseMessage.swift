/// A protobuf message as a Swift value.
///
/// Every message type generated from `Proto/` conforms. Encoding and decoding go through
/// protobuf-c's `pack` and `unpack`; the generated glue copies fields between the Swift
/// value and protobuf-c's C struct with direct member access.
public protocol GlimpseMessage: Sendable, Hashable {
    /// The full protobuf name, e.g. `glimpse.widget.v1.Timeline`.
    static var protoMessageName: String { get }

    /// The message with every field at its default.
    init()

    /// The protobuf wire encoding of this value.
    func serializedBytes() throws(ProtoEncodingError) -> [UInt8]

    /// Appends the protobuf wire encoding of this value to `buffer`. Reusing one buffer
    /// (clear it with `removeAll(keepingCapacity: true)`) costs no allocation per message.
    func serialize(appendingTo buffer: inout [UInt8]) throws(ProtoEncodingError)

    /// Decodes the protobuf wire encoding; fields this schema does not know are skipped.
    init(serializedBytes bytes: UnsafeRawBufferPointer) throws(ProtoDecodingError)
}

extension GlimpseMessage {
    /// Decodes the protobuf wire encoding held in an array. (Inlinable, so that each
    /// message type gets its own copy: the generic one moved the value through its
    /// witness table, retaining and releasing every field once more.)
    @inlinable
    public init(serializedBytes bytes: [UInt8]) throws(ProtoDecodingError) {
        // Array.withUnsafeBytes is `rethrows`, not typed: narrow the error back.
        do {
            self = try bytes.withUnsafeBytes { raw in try Self(serializedBytes: raw) }
        } catch let error as ProtoDecodingError {
            throw error
        } catch {
            preconditionFailure("unreachable: decoding throws only ProtoDecodingError")
        }
    }
}

/// Why bytes could not be decoded as a message. Never a crash: every malformed input
/// ends here.
public enum ProtoDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// protobuf-c refused the bytes: truncated, a wrong wire type for a known field, a
    /// length past the end, a bad varint, a group, or a field number of zero.
    case malformed(message: String)
    /// A `string` field that is not valid UTF-8. `field` is its path from `message`, the
    /// outermost message decoded (`entries[0].key`).
    case invalidUTF8(message: String, field: String)
    /// A `string` field holding U+0000: refused rather than kept, since C code (protobuf-c
    /// among it) would read the text as ending there. `field` as for `invalidUTF8`.
    case stringContainsNUL(message: String, field: String)
    /// Messages nested deeper than `ProtoLimits.maxDepth`.
    case tooDeep(message: String)

    public var description: String {
        switch self {
        case .malformed(let message): "malformed protobuf for \(message)"
        case .invalidUTF8(let message, let field): "\(message).\(field) is not valid UTF-8"
        case .stringContainsNUL(let message, let field): "\(message).\(field) holds U+0000 (NUL)"
        case .tooDeep(let message): "\(message) nests deeper than \(ProtoLimits.maxDepth) levels"
        }
    }

    /// Whether the bytes were protobuf and only their text is refused (the sender's
    /// content, not a broken encoding).
    public var isRefusedText: Bool {
        switch self {
        case .invalidUTF8, .stringContainsNUL: true
        case .malformed, .tooDeep: false
        }
    }

    /// The same refusal seen from the message that holds `message` in its field `field`
    /// (element `index`, or -1): the path grows by `field[index].`.
    func nested(in message: StaticString, field: StaticString, index: Int) -> Self {
        switch self {
        case .invalidUTF8(_, let inner):
            .invalidUTF8(message: "\(message)", field: _ProtoFieldPath.element(field, index) + "." + inner)
        case .stringContainsNUL(_, let inner):
            .stringContainsNUL(message: "\(message)", field: _ProtoFieldPath.element(field, index) + "." + inner)
        case .malformed, .tooDeep:
            self
        }
    }
}

/// Field paths in decoding errors, as protobuf's text names them: `name`, `name[3]`.
enum _ProtoFieldPath {
    static func element(_ field: StaticString, _ index: Int) -> String {
        index < 0 ? "\(field)" : "\(field)[\(index)]"
    }
}

/// Why a value could not be encoded.
public enum ProtoEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// protobuf-c keeps strings NUL-terminated, so a string with U+0000 in it cannot be
    /// encoded without losing its tail; it is refused rather than truncated.
    case stringContainsNUL(message: String, field: String)
    /// Messages nested deeper than `ProtoLimits.maxDepth`.
    case tooDeep(message: String)

    public var description: String {
        switch self {
        case .stringContainsNUL(let message, let field): "\(message).\(field) contains a NUL character"
        case .tooDeep(let message): "\(message) nests deeper than \(ProtoLimits.maxDepth) levels"
        }
    }
}

/// Limits of the message layer.
public enum ProtoLimits {
    /// How deep messages may nest, on the way in and out (protobuf's own default). The C
    /// unpacker recurses once per level, so a hostile input could otherwise exhaust the
    /// thread's stack.
    public static let maxDepth = 100
}

package let _protoMaxDepth = ProtoLimits.maxDepth
