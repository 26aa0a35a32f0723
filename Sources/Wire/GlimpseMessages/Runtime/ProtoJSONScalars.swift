import GlimpseJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers in proto3 JSON: exact integers from number or string literals, and floating
/// point written the way Python's `json_format` writes it (so both sides agree byte for
/// byte).
package enum _ProtoJSONNumbers {
    // MARK: Integers

    /// Reads an integer field: a JSON number or a string holding one, which must be
    /// integral and in range; `1.0`, `1e2` and `"-7"` are integers, `1.5` and `1e-1` are not.
    static func read<T: FixedWidthInteger>(
        _ value: JSONValue, _ path: @autoclosure () -> String, _ typeName: String
    ) throws(ProtoJSONError) -> T {
        let literal: String
        switch value {
        case .number(let l): literal = l
        case .string(let s): literal = s
        default:
            throw ProtoJSONError(
                path: path(), reason: "expected an integer (\(typeName)), found \(value.protoJSONKind)")
        }
        switch exactInteger(literal) {
        case .some(let (negative, magnitude)):
            if let v = T.exactly(negative: negative, magnitude: magnitude) { return v }
            throw ProtoJSONError(path: path(), reason: "\(shown(value)) is out of range for \(typeName)")
        case .none:
            throw ProtoJSONError(path: path(), reason: "\(shown(value)) is not an integer (\(typeName))")
        }
    }

    /// The integer `literal` (a JSON number, nothing else) denotes, when it is integral
    /// and `T` holds it.
    static func integer<T: FixedWidthInteger>(_ literal: String, _: T.Type) -> T? {
        guard let (negative, magnitude) = exactInteger(literal) else { return nil }
        return T.exactly(negative: negative, magnitude: magnitude)
    }

    /// `(negative, magnitude)` of an integral JSON number literal; magnitude nil when it
    /// does not fit in 64 bits. nil when `literal` is not a JSON number or not integral.
    static func exactInteger(_ literal: String) -> (Bool, UInt64?)? {
        guard let parts = NumberLiteral(literal) else { return nil }
        // digits × 10^exponent, with digits free of leading zeros.
        var digits = parts.digits.drop(while: { $0 == UInt8(ascii: "0") })
        var exponent = parts.exponent
        if digits.isEmpty { return (parts.negative, 0) }
        while exponent < 0 {
            guard digits.last == UInt8(ascii: "0") else { return nil }  // a fraction remains
            digits.removeLast()
            exponent += 1
        }
        if digits.count + exponent > 20 { return (parts.negative, nil) }
        var magnitude: UInt64 = 0
        for d in digits {
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(d - UInt8(ascii: "0")))
            if o1 || o2 { return (parts.negative, nil) }
            magnitude = s
        }
        for _ in 0..<exponent {
            let (m, o) = magnitude.multipliedReportingOverflow(by: 10)
            if o { return (parts.negative, nil) }
            magnitude = m
        }
        return (parts.negative, magnitude)
    }

    /// A JSON number literal taken apart: sign, all significant digits, and the power of
    /// ten that scales them (`12.5e1` is `125` × 10^0).
    struct NumberLiteral {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0

        init?(_ literal: String) {
            let bytes = Array(literal.utf8)
            var i = 0
            func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { return nil }
            if bytes[i] == UInt8(ascii: "0") {
                digits.append(bytes[i]); i += 1
            } else {
                while i < bytes.count, isDigit(bytes[i]) { digits.append(bytes[i]); i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard i < bytes.count, isDigit(bytes[i]) else { return nil }
                while i < bytes.count, isDigit(bytes[i]) { digits.append(bytes[i]); exponent -= 1; i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                var expNegative = false
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                    expNegative = bytes[i] == UInt8(ascii: "-"); i += 1
                }
                guard i < bytes.count, isDigit(bytes[i]) else { return nil }
                var e = 0
                while i < bytes.count, isDigit(bytes[i]) {
                    e = min(e * 10 + Int(bytes[i] - UInt8(ascii: "0")), 1_000_000)  // saturates: far past any range
                    i += 1
                }
                exponent += expNegative ? -e : e
            }
            guard i == bytes.count else { return nil }
        }
    }

    // MARK: Floating point

    /// Reads a `double` (or, with `float`, a `float`, range-checked): a JSON number, a
    /// string holding one, or `"NaN"`, `"Infinity"`, `"-Infinity"`. A finite number too
    /// large for the type is refused (not made infinite).
    static func double(
        _ value: JSONValue, _ path: @autoclosure () -> String, float: Bool
    ) throws(ProtoJSONError) -> Double {
        let typeName = float ? "float" : "double"
        let literal: String
        switch value {
        case .number(let l): literal = l
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let s): literal = s
        default:
            throw ProtoJSONError(path: path(), reason: "expected a number (\(typeName)), found \(value.protoJSONKind)")
        }
        guard NumberLiteral(literal) != nil, let d = Double(literal) else {
            throw ProtoJSONError(path: path(), reason: "\(shown(value)) is not a number (\(typeName))")
        }
        // A float takes what rounds to a finite float: its largest, written in its shortest
        // form (3.4028235e+38), is a little above it as a double.
        guard float ? Float(d).isFinite : d.isFinite else {
            throw ProtoJSONError(path: path(), reason: "\(shown(value)) is out of range for \(typeName)")
        }
        return d
    }

    /// A double as Python's `repr` writes it (what `json_format` + `json.dumps` produce):
    /// the shortest digits that read back as the same double, in positional notation
    /// with at least one fractional digit (`1.0`) for decimal exponents -4...15, else as
    /// `1e+16`, `1.5e-05`. NaN and the infinities are the strings proto3 JSON names.
    static func json(_ d: Double) -> JSONValue {
        if d.isNaN { return .string("NaN") }
        if d.isInfinite { return .string(d < 0 ? "-Infinity" : "Infinity") }
        return .number(pythonRepr(d.description))
    }

    /// A float as `json_format` writes it (`type_checkers.ToShortestFloat`): the value
    /// rounded to the fewest significant digits, *but at least 6*, that read back as the
    /// same float (`0.1`, not `0.10000000149011612`; the smallest subnormal is
    /// `1.4013e-45`, not `1e-45`), formatted like a Python double.
    static func json(_ f: Float) -> JSONValue {
        if f.isNaN { return .string("NaN") }
        if f.isInfinite { return .string(f < 0 ? "-Infinity" : "Infinity") }
        var digits = 6
        var text = scientific(Double(f), digits: digits)
        while digits < 9, Float(Double(text) ?? .nan) != f {  // 9 digits always read back
            digits += 1
            text = scientific(Double(f), digits: digits)
        }
        return .number(pythonRepr(text))
    }

    /// `d` correctly rounded to `digits` significant digits, as C's `%.{digits-1}e`.
    static func scientific(_ d: Double, digits: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 48)
        let count = withVaList([d]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress!, $0.count, "%.\(digits - 1)e", args) }
        }
        // The C locale writes a point; another LC_NUMERIC could write a comma.
        return String(
            decoding: buffer.prefix(Int(max(0, count))).map {
                $0 == CChar(UInt8(ascii: ",")) ? UInt8(ascii: ".") : UInt8(bitPattern: $0)
            }, as: UTF8.self)
    }

    /// Re-formats Swift's shortest round-trip `description` of a finite value
    /// (`1e-05`, `1.2345679e+08`, `100.0`, `-0.0`) the way Python's float `repr` does.
    static func pythonRepr(_ description: String) -> String {
        let bytes = Array(description.utf8)
        var i = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { i = 1 }
        var digits: [UInt8] = []
        var pointAt: Int? = nil  // number of mantissa digits before the point
        while i < bytes.count, bytes[i] != UInt8(ascii: "e"), bytes[i] != UInt8(ascii: "E") {
            if bytes[i] == UInt8(ascii: ".") { pointAt = digits.count } else { digits.append(bytes[i]) }
            i += 1
        }
        var exponent = 0
        if i < bytes.count {
            i += 1
            var expNegative = false
            if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                expNegative = bytes[i] == UInt8(ascii: "-"); i += 1
            }
            while i < bytes.count { exponent = exponent * 10 + Int(bytes[i] - UInt8(ascii: "0")); i += 1 }
            if expNegative { exponent = -exponent }
        }
        // value = 0.d1d2d3... × 10^decpt, digits without leading or trailing zeros.
        var decpt = (pointAt ?? digits.count) + exponent
        while let first = digits.first, first == UInt8(ascii: "0") { digits.removeFirst(); decpt -= 1 }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        if digits.isEmpty { return negative ? "-0.0" : "0.0" }
        if decpt > -4 && decpt <= 16 {
            if decpt <= 0 {
                out += Array("0.".utf8) + Array(repeating: UInt8(ascii: "0"), count: -decpt) + digits
            } else if decpt >= digits.count {
                out += digits + Array(repeating: UInt8(ascii: "0"), count: decpt - digits.count) + Array(".0".utf8)
            } else {
                out += digits[..<decpt] + [UInt8(ascii: ".")] + digits[decpt...]
            }
        } else {
            out.append(digits[0])
            if digits.count > 1 { out += [UInt8(ascii: ".")] + digits[1...] }
            let e = decpt - 1
            out += Array((e < 0 ? "e-" : "e+").utf8)
            let magnitude = String(abs(e))
            if magnitude.count < 2 { out.append(UInt8(ascii: "0")) }
            out += Array(magnitude.utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Text for error messages

    static func quoted(_ s: String) -> String {
        String(decoding: JSONValue.string(s).serialized(), as: UTF8.self)
    }

    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .number(let l): l
        case .string(let s): quoted(s)
        default: value.protoJSONKind
        }
    }
}

extension FixedWidthInteger {
    /// The value `negative ? -magnitude : magnitude` when this type holds it.
    static func exactly(negative: Bool, magnitude: UInt64?) -> Self? {
        guard let magnitude else { return nil }
        if !negative { return Self(exactly: magnitude) }
        if magnitude == 0 { return 0 }
        // -magnitude fits when magnitude <= |Self.min| = Self.max + 1.
        guard Self.isSigned, magnitude <= UInt64(Self.max) + 1 else { return nil }
        return Self(truncatingIfNeeded: Int64(bitPattern: 0 &- magnitude))
    }
}

/// Base64 for `bytes` fields (RFC 4648): written in the standard alphabet with padding;
/// read in the standard or the URL-safe alphabet, with or without padding.
package enum _ProtoJSONBase64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            let b1: UInt8? = i + 1 < bytes.count ? bytes[i + 1] : nil
            let b2: UInt8? = i + 2 < bytes.count ? bytes[i + 2] : nil
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            out.append(b1.map { alphabet[Int(($0 & 0x0F) << 2 | (b2 ?? 0) >> 6)] } ?? UInt8(ascii: "="))
            out.append(b2.map { alphabet[Int($0 & 0x3F)] } ?? UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func sextet(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// nil on a character outside both alphabets, padding anywhere but at the end (or
    /// more than needed), or a length no encoding has.
    static func decode(_ text: String) -> [UInt8]? {
        var chars = Array(text.utf8)
        var padding = 0
        while chars.last == UInt8(ascii: "=") { chars.removeLast(); padding += 1 }
        if chars.count % 4 == 1 { return nil }
        if padding > 0 && (chars.count + padding) % 4 != 0 { return nil }
        if padding > 2 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for c in chars {
            guard let v = sextet(c) else { return nil }
            accumulator = accumulator << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}
