/// A strict RFC 8259 parser into `JSONValue`, for input from the network (APNs bodies,
/// app requests).
///
/// Invariants:
/// - Accepts exactly one value with optional surrounding whitespace (space, tab, LF, CR);
///   anything else is an error carrying the byte offset of the offending byte, or the
///   input's length when it ends too early.
/// - Strings must be valid UTF-8 (no overlong forms, no encoded surrogates, nothing past
///   U+10FFFF) and `\u` surrogate escapes must pair: a lone surrogate is refused, since a
///   Swift String cannot hold one and replacing it would change the payload. A UTF-8 byte
///   order mark is refused (RFC 8259 §8.1: senders must not add one).
/// - Numbers are kept as written, however long; duplicate keys are kept in order.
/// - At most `maximumDepth` arrays and objects nest, so hostile input cannot exhaust the
///   stack; the work is linear in the input's length.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted: `[[1]]` has depth 2.
    public static let maximumDepth = 64

    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Parses one JSON document.
    public static func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(Error) in
            var parser = Cursor(buffer: buffer)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
                throw parser.error("byte order mark (not allowed in JSON text)")
            }
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.error("trailing characters") }
            return value
        }
    }
}

private struct Cursor {
    let buffer: UnsafeBufferPointer<UInt8>
    var index = 0

    init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    func error(_ reason: String, at offset: Int? = nil) -> JSONParser.Error {
        .init(offset: offset ?? index, reason: reason)
    }

    var peek: UInt8? { index < buffer.count ? buffer[index] : nil }

    mutating func skipWhitespace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    mutating func expect(_ byte: UInt8) throws(JSONParser.Error) {
        guard peek == byte else {
            throw error(peek == nil ? "unexpected end of input" : "expected '\(Character(Unicode.Scalar(byte)))'")
        }
        index += 1
    }

    /// A value inside `depth` enclosing arrays and objects. Recursion is bounded: each
    /// container adds one level and `maximumDepth` stops it.
    mutating func parseValue(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard let b = peek else { throw error("unexpected end of input") }
        switch b {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParser.Error) {
        let count = word.utf8CodeUnitCount
        guard index + count <= buffer.count else { throw error("unexpected end of input") }
        for i in 0..<count where buffer[index + i] != word.utf8Start[i] { throw error("invalid literal") }
        index += count
    }

    /// An object at nesting level `depth` (1 for the outermost container).
    mutating func parseObject(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                throw error(peek == nil ? "unexpected end of input" : "expected a string key")
            }
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            members.append(JSONMember(key, try parseValue(depth: depth)))
            skipWhitespace()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    /// An array at nesting level `depth` (1 for the outermost container).
    mutating func parseArray(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "]"))
            return .array(items)
        }
    }

    mutating func parseNumber() throws(JSONParser.Error) -> String {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, isDigit(first) else { throw error("expected a digit") }
        index += 1
        if first != UInt8(ascii: "0") { while let d = peek, isDigit(d) { index += 1 } }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard let d = peek, isDigit(d) else { throw error("expected a digit after '.'") }
            while let d = peek, isDigit(d) { index += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let d = peek, isDigit(d) else { throw error("expected a digit in exponent") }
            while let d = peek, isDigit(d) { index += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// A string, from its opening quote. Raw bytes are checked as UTF-8 as they are read
    /// (so an error names the first byte of a bad sequence); escapes add whole scalars,
    /// so the decoded bytes are valid UTF-8 whenever every raw run is.
    mutating func parseString() throws(JSONParser.Error) -> String {
        index += 1  // opening quote
        var runStart = index
        var decoded: [UInt8] = []  // only once an escape has been seen
        var escaped = false
        while true {
            guard let b = peek else { throw error("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: buffer[runStart..<index])
                index += 1
                guard escaped else { return String(decoding: run, as: UTF8.self) }
                decoded.append(contentsOf: run)
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
                escaped = true
                try parseEscape(into: &decoded)
                runStart = index
            case 0x00..<0x20: throw error("control character in string")
            case 0x20..<0x80: index += 1
            default: try skipUTF8Sequence()
            }
        }
    }

    /// Steps over one multi-byte UTF-8 sequence, as Unicode's table 3-7 allows: no
    /// overlong forms, no surrogates (U+D800...U+DFFF), nothing past U+10FFFF.
    mutating func skipUTF8Sequence() throws(JSONParser.Error) {
        let count: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch buffer[index] {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; second = 0x80...0x9F
        case 0xF0: count = 4; second = 0x90...0xBF
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; second = 0x80...0x8F
        default: throw error("invalid UTF-8 in string")
        }
        guard index + count <= buffer.count, second.contains(buffer[index + 1]) else {
            throw error("invalid UTF-8 in string")
        }
        for k in 2..<count where !(0x80...0xBF).contains(buffer[index + k]) { throw error("invalid UTF-8 in string") }
        index += count
    }

    /// One escape, from its backslash; errors point at the backslash.
    mutating func parseEscape(into bytes: inout [UInt8]) throws(JSONParser.Error) {
        let start = index
        index += 1
        guard let e = peek else { throw error("unterminated string") }
        index += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(e)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hex4())
            switch scalar {
            case 0xD800...0xDBFF:
                guard peek == UInt8(ascii: "\\"), index + 1 < buffer.count, buffer[index + 1] == UInt8(ascii: "u")
                else {
                    throw error("unpaired high surrogate escape", at: start)
                }
                index += 2
                let low = UInt32(try hex4())
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("high surrogate escape not followed by a low surrogate", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw error("unpaired low surrogate escape", at: start)
            default:
                break
            }
            Self.appendUTF8(scalar, to: &bytes)
        default: throw error("invalid escape", at: start)
        }
    }

    mutating func hex4() throws(JSONParser.Error) -> UInt16 {
        guard index + 4 <= buffer.count else { throw error("short \\u escape") }
        var v: UInt16 = 0
        for _ in 0..<4 {
            let c = buffer[index]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw error("bad hex digit in \\u escape")
            }
            v = v << 4 | UInt16(digit)
            index += 1
        }
        return v
    }

    /// The UTF-8 encoding of a scalar value (never a surrogate, at most U+10FFFF).
    static func appendUTF8(_ v: UInt32, to bytes: inout [UInt8]) {
        switch v {
        case ..<0x80:
            bytes.append(UInt8(v))
        case ..<0x800:
            bytes.append(0xC0 | UInt8(v >> 6))
            bytes.append(0x80 | UInt8(v & 0x3F))
        case ..<0x10000:
            bytes.append(0xE0 | UInt8(v >> 12))
            bytes.append(0x80 | UInt8(v >> 6 & 0x3F))
            bytes.append(0x80 | UInt8(v & 0x3F))
        default:
            bytes.append(0xF0 | UInt8(v >> 18))
            bytes.append(0x80 | UInt8(v >> 12 & 0x3F))
            bytes.append(0x80 | UInt8(v >> 6 & 0x3F))
            bytes.append(0x80 | UInt8(v & 0x3F))
        }
    }
}
