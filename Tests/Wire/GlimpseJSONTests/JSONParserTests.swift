import GlimpseJSON
import Testing

@Suite("JSON value type")
struct JSONParserTests {
    @Test(
        "numbers keep their literal through parse and serialize",
        arguments: [
            #"{"a":12.50}"#, #"{"a":-0.0}"#, #"{"a":1e+30}"#, #"{"a":12345678901234567890}"#,
        ])
    func numbersRoundTrip(text: String) throws {
        let value = try JSONParser.parse(bytes(text))
        #expect(value.serialized() == bytes(text))
    }

    @Test("object members keep their order; lookup takes the last duplicate")
    func memberOrder() throws {
        let value = try JSONParser.parse(bytes(#"{"z":1,"a":2,"z":3}"#))
        #expect(value.serialized() == bytes(#"{"z":1,"a":2,"z":3}"#))
        #expect(value["z"] == .number("3"))
    }

    @Test("escapes decode, including surrogate pairs, and re-encode compactly")
    func escapes() throws {
        let value = try JSONParser.parse(bytes(#"{"s":"a\"b\\c\/d\n\u00e9\ud83c\udf55"}"#))
        #expect(value["s"] == .string("a\"b\\c/d\né🍕"))
        #expect(value.serialized() == bytes(#"{"s":"a\"b\\c/d\né🍕"}"#))
    }

    @Test(
        "malformed JSON is refused with an offset",
        arguments: [
            "", "{", #"{"a":}"#, #"{"a":1,}"#, "[1 2]", "01", "1.", "-", #""\ud800""#, "tru", #"{"a":1} x"#,
            "\"\u{01}\"", #"{a:1}"#, String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
        ])
    func refusesMalformed(text: String) {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(bytes(text)) }
    }

    @Test("invalid UTF-8 inside a string is refused")
    func refusesBadUTF8() {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("content and attributes must be JSON objects")
    func objectsOnly() {
        #expect(throws: JSONObjectBytes.Error.notAnObject) { try JSONObjectBytes(validating: bytes("[1]")) }
        #expect((try? JSONObjectBytes(validating: bytes(#"{"ok":true}"#))) != nil)
    }
}
