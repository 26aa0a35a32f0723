import GlimpseJSON
import Testing

@Suite("JSONTestSuite-style documents")
struct JSONTestSuiteTests {
    @Test(
        "y_ and accepted i_: parse; the compact encoding re-parses equal and is a fixed point",
        arguments: SuiteCases.accepted + SuiteCases.acceptedByChoice)
    func accepts(_ c: JSONCase) throws {
        let value = try JSONParser.parse(c.bytes)
        let encoded = value.serialized()
        #expect(try JSONParser.parse(encoded) == value)
        #expect(try JSONParser.parse(encoded).serialized() == encoded)
    }

    @Test(
        "n_ and refused i_: throw JSONParser.Error with an offset inside the input",
        arguments: SuiteCases.rejected + SuiteCases.rejectedByChoice)
    func rejects(_ c: JSONCase) {
        let error = #expect(throws: JSONParser.Error.self) { try JSONParser.parse(c.bytes) }
        if let error {
            #expect((0...c.bytes.count).contains(error.offset), "\(error)")
            #expect(!error.reason.isEmpty)
        }
    }

    @Test(
        "huge and tiny numbers are kept exactly as written",
        arguments: [
            "1e999999", "-1e+9999", "123e-10000000", "0.4e006699999999999999999999", "-0", "0e1", "1E+2",
            String(repeating: "9876543210", count: 40), "-" + String(repeating: "1", count: 400) + ".5e-7",
        ])
    func numbersAsWritten(literal: String) throws {
        #expect(try JSONParser.parse(bytes(literal)) == .number(literal))
        #expect(try JSONParser.parse(bytes("[\(literal)]")).serialized() == bytes("[\(literal)]"))
    }

    // The writer's promise: compact (no whitespace outside strings), members in order,
    // number literals verbatim, strings as raw UTF-8 except `"` `\` and C0 controls
    // (short escapes where JSON has them, else lowercase \u00xx). A document already in
    // that form comes back byte for byte.
    @Test(
        "canonical documents round-trip byte for byte",
        arguments: [
            "{}", "[]", "null", "true", "false", "0", "-0", "12.50", "1E+2", #""""#,
            #"{"z":1,"a":2,"z":3}"#, #"{"":{"":[[],{}]}}"#, #"[null,true,false,-1.5e-3,"x"]"#,
            #""a\"b\\c/d\n\r\t\b\f""#, #""\u0000\u0001\u001f\u000b""#, "\"\u{7F}é€🍕\u{2028}\u{10FFFF}\"",
            #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"driverName":"Tim","eta":12.50}}}"#,
        ])
    func canonicalRoundTrip(text: String) throws {
        #expect(try JSONParser.parse(bytes(text)).serialized() == bytes(text))
    }

    @Test(
        "non-canonical input is normalised to the compact form",
        arguments: [
            (" { \"a\" : [ 1 , 2 ] } \n", #"{"a":[1,2]}"#),
            (#""\/""#, #""/""#),
            (#""\u0041\u00e9\u20AC""#, "\"Aé€\""),
            (#""\uD83C\uDF55""#, "\"🍕\""),
            (#""\u001F\u000B\u000a""#, #""\u001f\u000b\n""#),
            (#""\u0008\u000C\u000D\u0009""#, #""\b\f\r\t""#),
            (#""\u0022\u005c""#, #""\"\\""#),
        ])
    func normalises(input: String, compact: String) throws {
        #expect(try JSONParser.parse(bytes(input)).serialized() == bytes(compact))
    }

    @Test(
        "errors point at the offending byte",
        arguments: [
            ("[1,]", 3), ("01", 1), ("-", 1), ("1.", 2), ("1e", 2), (".1", 0), ("[1 2]", 3),
            (#"{"a":1,}"#, 7), (#"{"a":1} x"#, 8), (#""abc"#, 4), ("\"a\nb\"", 2), (#""\u12G4""#, 5),
            (#""\q""#, 1), (#""x\ud800""#, 2), (#""\udc00""#, 1), (#""\ud800\u0041""#, 1), ("tru", 0), ("nulx", 0),
            (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), 64),
        ])
    func errorOffsets(text: String, offset: Int) {
        let error = #expect(throws: JSONParser.Error.self) { try JSONParser.parse(bytes(text)) }
        #expect(error?.offset == offset, "\(String(describing: error))")
    }

    @Test(
        "invalid UTF-8 is reported at the first byte of the bad sequence",
        arguments: [
            (spliced("\"a", [0xFF], "b\""), 2), (spliced("\"ab", [0xE2, 0x82], "\""), 3),
            (spliced("\"", [0xC0, 0xAF], "\""), 1), (spliced("\"\\n", [0xED, 0xA0, 0x80], "\""), 3),
            (spliced("{\"k\":\"", [0xF4, 0x90, 0x80, 0x80], "\"}"), 6), (spliced("[", [0xEF, 0xBB, 0xBF], "1]"), 1),
            (spliced("", [0xEF, 0xBB, 0xBF], "{}"), 0),
        ])
    func utf8ErrorOffsets(input: [UInt8], offset: Int) {
        let error = #expect(throws: JSONParser.Error.self) { try JSONParser.parse(input) }
        #expect(error?.offset == offset, "\(String(describing: error))")
    }

    // Decision: a lone or mis-ordered UTF-16 surrogate escape is refused. A Swift String
    // cannot hold one, and replacing it with U+FFFD would silently change the payload.
    @Test("surrogate escapes: pairs decode; lone ones are refused with a clear reason")
    func surrogates() throws {
        #expect(try JSONParser.parse(bytes(#""\uD834\uDD1E""#)) == .string("\u{1D11E}"))
        #expect(try JSONParser.parse(bytes(#""\udbff\udfff""#)) == .string("\u{10FFFF}"))
        for text in [#""\ud800""#, #""\udc00""#, #""\ud800\ud800""#, #""\ud800\u0041""#, #""\ud800x""#] {
            let error = #expect(throws: JSONParser.Error.self) { try JSONParser.parse(bytes(text)) }
            #expect(error?.reason.contains("surrogate") == true, "\(text): \(String(describing: error))")
        }
    }

    // Decision: a UTF-8 byte order mark is refused (RFC 8259 §8.1 forbids sending one).
    // JSONObjectBytes keeps bytes as given, so accepting it would pass the BOM on.
    @Test("a byte order mark is refused at offset 0")
    func byteOrderMark() {
        let error = #expect(throws: JSONParser.Error.self) { try JSONParser.parse([0xEF, 0xBB, 0xBF] + bytes("{}")) }
        #expect(error?.offset == 0)
    }

    // Decision: duplicate keys are kept, in order, and written back as given; lookup by
    // subscript takes the last (as Foundation's decoder does).
    @Test("duplicate keys are kept in order and the last wins on lookup")
    func duplicateKeys() throws {
        let text = #"{"a":1,"b":2,"a":3,"a":{"a":4}}"#
        let value = try JSONParser.parse(bytes(text))
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "b", "a", "a"])
        #expect(value["a"] == ["a": 4])
        #expect(value.serialized() == bytes(text))
    }

    @Test("escaped NUL is a NUL in the string and is written back as \\u0000; a raw NUL is refused")
    func escapedNUL() throws {
        let value = try JSONParser.parse(bytes(#"{"k\u0000":"a\u0000b"}"#))
        #expect(value["k\u{0}"] == .string("a\u{0}b"))
        #expect(value.serialized() == bytes(#"{"k\u0000":"a\u0000b"}"#))
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(spliced("\"a", [0], "b\"")) }
    }
}
