import GlimpseJSON
import Testing

/// The openers of `n` nested containers: arrays, objects (`{"a":`), or both alternating.
func openers(_ n: Int, _ kind: String) -> String {
    (0..<n).map { level in kind == "array" || (kind == "mixed" && level % 2 == 0) ? "[" : #"{"a":"# }.joined()
}

/// `n` containers nested around `inner`.
func nested(_ n: Int, _ kind: String, inner: String) -> [UInt8] {
    let open = openers(n, kind)
    let close = String(open.reversed().compactMap { $0 == "[" ? "]" : $0 == "{" ? "}" : nil })
    return bytes(open + inner + close)
}

@Suite("Limits: nesting, size, and what JSONObjectBytes guarantees")
struct JSONLimitsTests {
    @Test(
        "maximumDepth counts containers: 64 nested parse whatever is innermost, 65 throw at the 65th",
        arguments: ["array", "object", "mixed"], ["1", #""s""#, "[]", "{}", "null"])
    func depthLimit(kind: String, inner: String) throws {
        #expect(JSONParser.maximumDepth == 64)
        let ok = try JSONParser.parse(nested(63, kind, inner: inner))
        #expect(ok.serialized() == nested(63, kind, inner: inner))
        _ = try JSONParser.parse(nested(64, kind, inner: inner == "[]" || inner == "{}" ? "1" : inner))
        let error = #expect(throws: JSONParser.Error.self) { try JSONParser.parse(nested(65, kind, inner: inner)) }
        #expect(error?.offset == openers(64, kind).utf8.count, "\(String(describing: error))")
    }

    @Test("64 nested containers with a scalar inside are accepted (the 64th container may hold values)")
    func scalarInsideDeepestContainer() throws {
        let text = String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)
        #expect(try JSONParser.parse(bytes(text)).serialized() == bytes(text))
        let objects = String(repeating: #"{"a":"#, count: 63) + #"{"a":1}"# + String(repeating: "}", count: 63)
        #expect(try JSONParser.parse(bytes(objects)).serialized() == bytes(objects))
    }

    @Test(
        "100,000 openers throw, never overflow the stack", .timeLimit(.minutes(1)),
        arguments: [
            String(repeating: "[", count: 100_000),
            String(repeating: #"{"a":"#, count: 100_000),
            String(repeating: #"[{"a":"#, count: 50_000),
            String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
            String(repeating: "[1,", count: 100_000),
        ])
    func hostileNesting(text: String) {
        let error = #expect(throws: JSONParser.Error.self) { try JSONParser.parse(bytes(text)) }
        #expect((error?.offset ?? 0) < 1_000)
    }

    @Test("large inputs parse in linear time", .timeLimit(.minutes(1)))
    func largeInputs() throws {
        let count = 200_000
        let array = try JSONParser.parse(bytes("[" + String(repeating: "1,", count: count - 1) + "1]"))
        guard case .array(let items) = array else { Issue.record("not an array"); return }
        #expect(items.count == count)

        let members = String(repeating: #""k":0,"#, count: count - 1)
        let object = try JSONParser.parse(bytes("{" + members + #""k":1}"#))
        #expect(object["k"] == .number("1"))

        let escapes = #"\n\u00e9\ud83d\ude00\"x"#
        let string = try JSONParser.parse(bytes("\"" + String(repeating: escapes, count: 50_000) + "\""))
        #expect(string.stringValue?.unicodeScalars.count == 50_000 * 5)
        #expect(string.serialized().count == 50_000 * (2 + 2 + 4 + 2 + 1) + 2)

        let raw = String(repeating: "é€🍕a", count: 100_000)
        #expect(try JSONParser.parse(bytes("\"" + raw + "\"")) == .string(raw))

        let digits = String(repeating: "1234567890", count: 100_000)
        #expect(try JSONParser.parse(bytes(digits + "e-5")) == .number(digits + "e-5"))

        let spaced = String(repeating: " \n\t\r", count: 250_000)
        #expect(try JSONParser.parse(bytes(spaced + "{}" + spaced)) == .object([]))

        // Failing late in a large input costs no more than parsing it.
        let unclosed = "[" + String(repeating: #"{"a":"b"},"#, count: 100_000)
        let error = #expect(throws: JSONParser.Error.self) { try JSONParser.parse(bytes(unclosed)) }
        #expect(error?.offset == unclosed.utf8.count)
    }

    @Test("the writer handles values built in code deeper than the parser allows, and JSONObjectBytes refuses them")
    func deepValueBuiltInCode() {
        var value: JSONValue = .null
        for _ in 0..<1_000 { value = .object([JSONMember("a", value)]) }
        #expect(value.serialized().count == 1_000 * 6 + 4)
        #expect(throws: JSONObjectBytes.Error.self) { try JSONObjectBytes(value) }
    }

    // JSONObjectBytes promises its bytes always parse as one object; `.number` is a
    // public case, so a literal built in code may not be a JSON number.
    @Test(
        "JSONObjectBytes refuses values whose encoding would not parse",
        arguments: [
            "NaN", "nan", "inf", "-Infinity", "", "01", "1.", ".5", "+1", "1e", "0x10", "1 ", " 1", "1,2", "1}",
        ])
    func refusesBadNumberLiteral(literal: String) {
        #expect(throws: JSONObjectBytes.Error.self) { try JSONObjectBytes(["x": .number(literal)]) }
    }

    @Test(
        "numbers from Double are always valid JSON; non-finite ones become null",
        arguments: [
            0.0, -0.0, 0.1, -2.5, 1e-7, .leastNonzeroMagnitude, 1e15, 1e16, 123456.5, 2.220446049250313e-16,
            1_700_000_000.25, -9_007_199_254_740_992, .greatestFiniteMagnitude, .infinity, -.infinity, .nan,
        ])
    func numbersFromDouble(x: Double) throws {
        let value = JSONValue.number(x)
        let object = try JSONObjectBytes(["x": value])
        #expect(try JSONParser.parse(object.bytes) == ["x": value])
        if x.isFinite {
            #expect(value.doubleValue == x)
        } else {
            #expect(value == .null)
        }
    }

    @Test("JSONObjectBytes: objects only, bytes kept as given, the compact form from a value")
    func objectBytes() throws {
        #expect(JSONObjectBytes.empty.bytes == bytes("{}"))
        let given = bytes(#" { "b" : 1.50 , "a" : [ ] } "#)
        let kept = try JSONObjectBytes(validating: given)
        #expect(kept.bytes == given)
        #expect(try JSONObjectBytes(kept.value).bytes == bytes(#"{"b":1.50,"a":[]}"#))
        for text in ["[]", "1", #""{}""#, "null"] {
            #expect(throws: JSONObjectBytes.Error.notAnObject) { try JSONObjectBytes(validating: bytes(text)) }
        }
        #expect(throws: JSONObjectBytes.Error.self) { try JSONObjectBytes(validating: bytes("{")) }
        #expect(throws: JSONObjectBytes.Error.notAnObject) { try JSONObjectBytes(.array([])) }
    }
}
