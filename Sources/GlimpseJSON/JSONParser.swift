/// A strict RFC 8259 parser into `JSONValue`.
///
/// Invariants:
/// - Accepts exactly one value with optional surrounding whitespace; anything else is an
///   error carrying the byte offset where parsing stopped.
/// - Strings must be valid UTF-8 and surrogate escapes must pair; nesting is bounded by
///   `maximumDepth` so hostile input cannot exhaust the stack.
public struct JSONParser {
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

    func error(_ reason: String) -> JSONParser.Error { .init(offset: index, reason: reason) }

    var peek: UInt8? { index < buffer.count ? buffer[index] : nil }

    mutating func skipWhitespace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    mutating func expect(_ byte: UInt8) throws(JSONParser.Error) {
        guard peek == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    mutating func parseValue(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth < JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
        guard let b = peek else { throw error("unexpected end of input") }
        switch b {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
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

    mutating func parseObject(depth: Int) throws(JSONParser.Error) -> JSONValue {
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            members.append(JSONMember(key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParser.Error) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
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

    mutating func parseString() throws(JSONParser.Error) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while let b = peek, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b >= 0x20 { index += 1 }
        if peek == UInt8(ascii: "\"") {
            let slice = UnsafeBufferPointer(rebasing: buffer[start..<index])
            index += 1
            guard let s = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
            return s
        }
        var bytes = Array(UnsafeBufferPointer(rebasing: buffer[start..<index]))
        while true {
            guard let b = peek else { throw error("unterminated string") }
            index += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: bytes, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
                return s
            case UInt8(ascii: "\\"): try parseEscape(into: &bytes)
            case 0x00..<0x20: index -= 1; throw error("control character in string")
            default: bytes.append(b)
            }
        }
    }

    mutating func parseEscape(into bytes: inout [UInt8]) throws(JSONParser.Error) {
        guard let e = peek else { throw error("unterminated escape") }
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
            if (0xD800..<0xDC00).contains(scalar) {
                guard peek == UInt8(ascii: "\\") else { throw error("unpaired surrogate") }
                index += 1
                guard peek == UInt8(ascii: "u") else { throw error("unpaired surrogate") }
                index += 1
                let low = UInt32(try hex4())
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired surrogate")
            }
            guard let s = Unicode.Scalar(scalar) else { throw error("invalid escape") }
            bytes.append(contentsOf: String(Character(s)).utf8)
        default: throw error("invalid escape")
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
}
