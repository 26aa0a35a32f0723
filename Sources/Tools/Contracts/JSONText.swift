import GlimpseJSON

/// Comparing and quoting proto3 JSON values the way a contract means them: 64-bit
/// integers arrive as strings ("7") and compare equal to the number 7; an absent enum is
/// its zero value, whose name ends in `_UNSPECIFIED`.
enum JSONText {
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let literal): Double(literal)
        case .string(let s): Double(s).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number, _), (_, .number):
            if let x = number(a), let y = number(b) { return x == y }
            if case .number(let n) = a, Double(n) == 0, case .string(let s) = b { return s.hasSuffix("_UNSPECIFIED") }
            if case .number(let n) = b, Double(n) == 0, case .string(let s) = a { return s.hasSuffix("_UNSPECIFIED") }
            return false
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { member in b[member.key].map { equal(member.value, $0) } ?? false }
        default:
            return a == b
        }
    }

    /// A value in a report line: compact JSON, cut at 120 characters.
    static func describe(_ value: JSONValue) -> String {
        let text = String(decoding: value.serialized(), as: UTF8.self)
        return text.count > 120 ? String(text.prefix(117)) + "…" : text
    }
}
