import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import GlimpseTestMessages
import RPCCore
import Testing

/// proto3 JSON: what the golden files do not show (the forms a parser must accept, and
/// every way input is refused, with the field path the error names).
@Suite("proto3 JSON mapping")
struct ProtoJSONTests {
    typealias AllKinds = GlimpseTestingV1.AllKinds

    static func decode<M: ProtoJSONMessage>(
        _ text: String, as _: M.Type = AllKinds.self, ignoringUnknownFields: Bool = false
    ) throws(ProtoJSONError) -> M {
        try M(jsonBytes: Array(text.utf8), ignoringUnknownFields: ignoringUnknownFields)
    }

    static func text(_ message: some ProtoJSONMessage) -> String {
        String(decoding: message.jsonBytes(), as: UTF8.self)
    }

    /// The error `text` is refused with (nil when it is accepted).
    static func error<M: ProtoJSONMessage>(
        _ text: String, as type: M.Type = AllKinds.self, ignoringUnknownFields: Bool = false
    ) -> ProtoJSONError? {
        do {
            _ = try decode(text, as: type, ignoringUnknownFields: ignoringUnknownFields)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Writing

    @Test("defaults are left out; presence (optional, messages, oneof members) is written even at the default")
    func presence() {
        #expect(Self.text(AllKinds()) == "{}")
        let m = AllKinds(
            fInt32: 0, fMessage: GlimpseTestingV1.Leaf(), oInt32: 0, oString: "", oEnum: .unspecified,
            choice: .cBytes([]))
        #expect(Self.text(m) == #"{"fMessage":{},"oInt32":0,"oString":"","oEnum":"MOOD_UNSPECIFIED","cBytes":""}"#)
        #expect(Self.text(AllKinds(choice: .cEmpty)) == #"{"cEmpty":{}}"#)
        #expect(Self.text(AllKinds(fDouble: -0.0, fFloat: -0.0)) == #"{"fDouble":-0.0,"fFloat":-0.0}"#)
    }

    @Test("64-bit integers are strings, 32-bit ones numbers; enums by name, unknown numbers as numbers")
    func scalars() {
        let m = AllKinds(
            fInt64: -1, fUint64: .max, fInt32: .min, fFixed64: 7, fUint32: .max, fEnum: .unrecognized(42), fSfixed64: 3)
        #expect(
            Self.text(m)
                == #"{"fInt64":"-1","fUint64":"18446744073709551615","fInt32":-2147483648,"fFixed64":"7","fUint32":4294967295,"fEnum":42,"fSfixed64":"3"}"#
        )
        #expect(
            Self.text(AllKinds(fEnum: .happy, rEnum: [.negative, .unrecognized(-9)]))
                == #"{"fEnum":"MOOD_HAPPY","rEnum":["MOOD_NEGATIVE",-9]}"#)
    }

    @Test("maps: keys as strings, in key order (numeric, false before true, code points)")
    func maps() {
        let m = AllKinds(
            mStringInt32: ["b": 1, "a": 2, "é": 3, "Z": 4], mInt64String: [10: "x", -2: "y", 9: "z"],
            mBoolLeaf: [true: .init(name: "t"), false: .init()])
        #expect(
            Self.text(m)
                == #"{"mStringInt32":{"Z":4,"a":2,"b":1,"é":3},"mInt64String":{"-2":"y","9":"z","10":"x"},"mBoolLeaf":{"false":{},"true":{"name":"t"}}}"#
        )
    }

    @Test("Timestamp and Duration are strings with 0, 3, 6 or 9 fractional digits")
    func wellKnownTypes() {
        typealias TS = GoogleProtobuf.Timestamp
        typealias D = GoogleProtobuf.Duration
        #expect(Self.text(TS(seconds: 0, nanos: 0)) == #""1970-01-01T00:00:00Z""#)
        #expect(Self.text(TS(seconds: 1_767_225_600, nanos: 10_000_000)) == #""2026-01-01T00:00:00.010Z""#)
        #expect(Self.text(TS(seconds: -1, nanos: 999_999_000)) == #""1969-12-31T23:59:59.999999Z""#)
        #expect(Self.text(TS(seconds: 951_782_400, nanos: 1)) == #""2000-02-29T00:00:00.000000001Z""#)
        #expect(Self.text(TS(seconds: -62_135_596_800, nanos: 0)) == #""0001-01-01T00:00:00Z""#)
        #expect(Self.text(D(seconds: 1, nanos: 500_000_000)) == #""1.500s""#)
        #expect(Self.text(D(seconds: 0, nanos: -500_000_000)) == #""-0.500s""#)
        #expect(Self.text(D(seconds: -3, nanos: -100)) == #""-3.000000100s""#)
        #expect(Self.text(D(seconds: 0, nanos: 0)) == #""0s""#)
        #expect(Self.text(D(seconds: 315_576_000_000, nanos: 0)) == #""315576000000s""#)
    }

    /// Found by the fuzzer (Fuzz/Crashers/proto): protobuf carries any seconds and nanos, but a
    /// duration with mixed signs, or a timestamp with nanos outside 0..<10^9, has no proto3 JSON.
    /// Written as their sum they read back as another, valid value; written apart, the reader
    /// refuses them with a clear error instead.
    @Test("an invalid duration or timestamp is written so that it does not read back as another value")
    func invalidWellKnownValues() {
        typealias TS = GoogleProtobuf.Timestamp
        typealias D = GoogleProtobuf.Duration
        #expect(Self.text(D(seconds: 68_719_476_735, nanos: -500_000_000)) == #""68719476735s -500000000ns""#)
        #expect(Self.text(D(seconds: 1, nanos: 1_000_000_000)) == #""1s 1000000000ns""#)
        #expect(Self.text(TS(seconds: 0, nanos: -1)) == #""1970-01-01T00:00:00Z with nanos -1""#)
        #expect(throws: ProtoJSONError.self) { try Self.decode(#""68719476735s -500000000ns""#, as: D.self) }
        #expect(throws: ProtoJSONError.self) { try Self.decode(#""1970-01-01T00:00:00Z with nanos -1""#, as: TS.self) }
    }

    @Test("floats: NaN and the infinities are strings; a float prints its short form, a double Python's repr")
    func floatingPoint() {
        #expect(
            Self.text(AllKinds(rDouble: [.nan, .infinity, -.infinity, 1, 1e16, 1e-5, 0.1]))
                == #"{"rDouble":["NaN","Infinity","-Infinity",1.0,1e+16,1e-05,0.1]}"#)
        #expect(
            Self.text(AllKinds(rFloat: [0.1, 1e10, .leastNonzeroMagnitude, 16_777_216]))
                == #"{"rFloat":[0.1,10000000000.0,1.4013e-45,16777216.0]}"#)
    }

    // MARK: Reading what parsers must accept

    @Test("both the JSON name and the proto field name")
    func names() throws {
        #expect(try Self.decode(#"{"fInt32":1,"r_string":["a"]}"#) == AllKinds(fInt32: 1, rString: ["a"]))
        #expect(try Self.decode(#"{"f_int32":1,"rString":["a"]}"#) == AllKinds(fInt32: 1, rString: ["a"]))
    }

    @Test("null is the default, for every kind of field, and does not set a oneof")
    func nulls() throws {
        let m = try Self.decode(
            #"{"fInt32":null,"fMessage":null,"oInt32":null,"rInt32":null,"mStringInt32":null,"fEnum":null,"cString":null,"cInt64":"4"}"#
        )
        #expect(m == AllKinds(choice: .cInt64(4)))
        #expect(m.fMessage == nil && m.oInt32 == nil)
    }

    @Test("integers as numbers or strings, exact: 1.0, 1e2 and \"-7\" are integers")
    func integers() throws {
        let m = try Self.decode(
            #"{"fInt64":"-9223372036854775808","fUint64":18446744073709551615,"fInt32":"-7","fFixed64":1e2,"fFixed32":"1.0","fUint32":4.2e1,"fSint64":"12E1","rInt32":[0,-0,"1",10e-1]}"#
        )
        #expect(m.fInt64 == .min && m.fUint64 == .max && m.fInt32 == -7 && m.fFixed64 == 100 && m.fFixed32 == 1)
        #expect(m.fUint32 == 42 && m.fSint64 == 120 && m.rInt32 == [0, 0, 1, 1])
    }

    @Test("enums by name or number (known or not, quoted or not)")
    func enums() throws {
        #expect(try Self.decode(#"{"fEnum":"MOOD_GRUMPY"}"#).fEnum == .grumpy)
        #expect(try Self.decode(#"{"fEnum":2}"#).fEnum == .grumpy)
        #expect(try Self.decode(#"{"fEnum":"-3"}"#).fEnum == .negative)
        #expect(try Self.decode(#"{"fEnum":99}"#).fEnum == .unrecognized(99))
    }

    @Test("floats from numbers, numeric strings and the special strings")
    func floats() throws {
        let m = try Self.decode(
            #"{"fDouble":"1.5","fFloat":-2,"rDouble":["NaN","Infinity","-Infinity",1e308,"-0"],"rFloat":[3.4028234663852886e38,1e-50]}"#
        )
        #expect(m.fDouble == 1.5 && m.fFloat == -2)
        #expect(m.rDouble[0].isNaN && m.rDouble[1] == .infinity && m.rDouble[2] == -.infinity && m.rDouble[3] == 1e308)
        #expect(m.rDouble[4].sign == .minus && m.rDouble[4] == 0)
        #expect(m.rFloat == [.greatestFiniteMagnitude, 0])
        // What json_format writes for the largest float reads back (Python's own parser refuses it).
        #expect(try Self.decode(#"{"fFloat":3.4028235e+38}"#).fFloat == .greatestFiniteMagnitude)
    }

    @Test("bytes in standard or URL-safe base64, padded or not")
    func base64() throws {
        for text in ["+/+/", "-_-_", "+/+/"] {
            #expect(try Self.decode(#"{"fBytes":"\#(text)"}"#).fBytes == [0xFB, 0xFF, 0xBF])
        }
        #expect(
            try Self.decode(#"{"rBytes":["AQ==","AQ","AAE","AAE=",""]}"#).rBytes == [[1], [1], [0, 1], [0, 1], []])
    }

    @Test("timestamps with offsets and any fraction; durations with any fraction")
    func wellKnownInput() throws {
        typealias TS = GoogleProtobuf.Timestamp
        typealias D = GoogleProtobuf.Duration
        #expect(
            try Self.decode(#""1972-01-01T10:00:20.021-05:00""#, as: TS.self)
                == TS(seconds: 63_126_020, nanos: 21_000_000))
        #expect(
            try Self.decode(#""2026-01-01T00:30:00.5+01:30""#, as: TS.self)
                == TS(seconds: 1_767_222_000, nanos: 500_000_000))
        #expect(
            try Self.decode(#""9999-12-31T23:59:59.999999999Z""#, as: TS.self)
                == TS(seconds: 253_402_300_799, nanos: 999_999_999))
        #expect(try Self.decode(#""-0.5s""#, as: D.self) == D(seconds: 0, nanos: -500_000_000))
        #expect(try Self.decode(#""12.000000001s""#, as: D.self) == D(seconds: 12, nanos: 1))
        #expect(try Self.decode(#""-315576000000s""#, as: D.self) == D(seconds: -315_576_000_000, nanos: 0))
    }

    @Test("an empty body is the empty message; a Timestamp field takes a string")
    func emptyAndNested() throws {
        #expect(try Self.decode("") == AllKinds())
        #expect(try Self.decode(" \n") == AllKinds())
        let relevance = try Self.decode(
            #"{"score":0.5,"duration":"900s"}"#, as: GlimpseWidgetV1.TimelineEntryRelevance.self)
        #expect(relevance.duration == GoogleProtobuf.Duration(seconds: 900, nanos: 0) && relevance.score == 0.5)
    }

    @Test("ignoring unknown fields skips unknown members and unknown enum names, and nothing else")
    func ignoringUnknown() throws {
        let text =
            #"{"bogus":{"deep":[1]},"fInt32":3,"fEnum":"MOOD_NOPE","oEnum":"MOOD_NOPE","cEnum":"MOOD_NOPE","rEnum":["MOOD_HAPPY","MOOD_NOPE"],"mUint32Enum":{"1":"MOOD_NOPE","2":"MOOD_GRUMPY"},"fMessage":{"extra":true}}"#
        #expect(Self.error(text) != nil)
        let m = try Self.decode(text, ignoringUnknownFields: true)
        #expect(m == AllKinds(fInt32: 3, fMessage: .init(), rEnum: [.happy], mUint32Enum: [2: .grumpy]))
        #expect(m.oEnum == nil && m.choice == nil)
        #expect(Self.error(#"{"bogus":1,"fInt32":"x"}"#, ignoringUnknownFields: true)?.path == "fInt32")
    }

    // MARK: Refusing

    @Test(
        "refusals name the field path",
        arguments: [
            // Out of range.
            (#"{"fInt32":2147483648}"#, "fInt32"),
            (#"{"fInt32":-2147483649}"#, "fInt32"),
            (#"{"fUint32":-1}"#, "fUint32"),
            (#"{"fUint32":4294967296}"#, "fUint32"),
            (#"{"fInt64":"9223372036854775808"}"#, "fInt64"),
            (#"{"fUint64":"-1"}"#, "fUint64"),
            (#"{"fUint64":"18446744073709551616"}"#, "fUint64"),
            (#"{"fSfixed64":1e19}"#, "fSfixed64"),
            (#"{"fFloat":3.5e38}"#, "fFloat"),
            (#"{"fFloat":"-3.5e38"}"#, "fFloat"),
            (#"{"fDouble":1e309}"#, "fDouble"),
            (#"{"fEnum":2147483648}"#, "fEnum"),
            // Not integers, not numbers.
            (#"{"fInt32":1.5}"#, "fInt32"),
            (#"{"fInt64":"1e-1"}"#, "fInt64"),
            (#"{"fInt32":" 1"}"#, "fInt32"),
            (#"{"fInt32":"0x10"}"#, "fInt32"),
            (#"{"fDouble":"nan"}"#, "fDouble"),
            (#"{"fDouble":"1.5 "}"#, "fDouble"),
            // Wrong JSON types.
            (#"{"fString":1}"#, "fString"),
            (#"{"fBool":"true"}"#, "fBool"),
            (#"{"fBool":1}"#, "fBool"),
            (#"{"fInt32":true}"#, "fInt32"),
            (#"{"fInt64":[1]}"#, "fInt64"),
            (#"{"fMessage":"leaf"}"#, "fMessage"),
            (#"{"fMessage":[]}"#, "fMessage"),
            (#"{"rInt32":{}}"#, "rInt32"),
            (#"{"rInt32":1}"#, "rInt32"),
            (#"{"mStringInt32":[]}"#, "mStringInt32"),
            (#"{"fBytes":5}"#, "fBytes"),
            (#"{"fEnum":true}"#, "fEnum"),
            (#"{"fEnum":1.5}"#, "fEnum"),
            // A field twice, under one name or both.
            (#"{"fInt32":1,"fInt32":1}"#, "fInt32"),
            (#"{"fInt32":1,"f_int32":2}"#, "f_int32"),
            (#"{"f_message":null,"fMessage":{}}"#, "fMessage"),
            // Two members of one oneof.
            (#"{"cString":"a","cInt64":"1"}"#, "cInt64"),
            (#"{"cEmpty":{},"c_message":{}}"#, "c_message"),
            // Unknown enum names, unknown fields.
            (#"{"fEnum":"MOOD_NOPE"}"#, "fEnum"),
            (#"{"fEnum":"mood_happy"}"#, "fEnum"),
            (#"{"rEnum":["MOOD_HAPPY","HAPPY"]}"#, "rEnum[1]"),
            (#"{"bogus":1}"#, "bogus"),
            (#"{"FInt32":1}"#, "FInt32"),
            (#"{"fMessage":{"name":"x","colour":"red"}}"#, "fMessage.colour"),
            (#"{"cEmpty":{"x":1}}"#, "cEmpty.x"),
            // Invalid base64.
            (#"{"fBytes":"!!!!"}"#, "fBytes"),
            (#"{"fBytes":"A"}"#, "fBytes"),
            (#"{"fBytes":"AB=C"}"#, "fBytes"),
            (#"{"fBytes":"AQ==="}"#, "fBytes"),
            (#"{"fBytes":"AAAA===="}"#, "fBytes"),
            (#"{"fBytes":"AQ= "}"#, "fBytes"),
            // Paths into arrays and maps; nulls where no default exists.
            (#"{"rMessage":[{},{"weight":"x"}]}"#, "rMessage[1].weight"),
            (#"{"rInt32":[1,null]}"#, "rInt32[1]"),
            (#"{"rMessage":[null]}"#, "rMessage[0]"),
            (#"{"mBoolLeaf":{"true":{"weight":1.5}}}"#, #"mBoolLeaf["true"].weight"#),
            (#"{"mBoolLeaf":{"yes":{}}}"#, #"mBoolLeaf["yes"]"#),
            (#"{"mInt64String":{"x":"a"}}"#, #"mInt64String["x"]"#),
            (#"{"mUint32Enum":{"-1":"MOOD_HAPPY"}}"#, #"mUint32Enum["-1"]"#),
            (#"{"mStringInt32":{"a":null}}"#, #"mStringInt32["a"]"#),
            (#"{"mInt64String":{"1":"a","01":"b"}}"#, #"mInt64String["01"]"#),
            // Text holding U+0000: as a value, an element, a map key or value, deep inside.
            (#"{"fString":"nul\u0000suffix"}"#, "fString"),
            (#"{"rString":["ok","\u0000"]}"#, "rString[1]"),
            (#"{"cString":"a\u0000"}"#, "cString"),
            (#"{"mStringInt32":{"k\u0000":1}}"#, #"mStringInt32["k\u0000"]"#),
            (#"{"mInt64String":{"1":"\u0000"}}"#, #"mInt64String["1"]"#),
            (#"{"rMessage":[{},{"name":"x\u0000y"}]}"#, "rMessage[1].name"),
            // Not an object, not JSON.
            ("[]", ""),
            ("1", ""),
            ("{", ""),
            (#"{"fInt32":1}x"#, ""),
        ])
    func refused(text: String, path: String) {
        let error = Self.error(text)
        #expect(error != nil, "accepted \(text)")
        #expect(error?.path == path, "\(error?.description ?? "")")
    }

    @Test(
        "invalid timestamps are refused",
        arguments: [
            "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-32T00:00:00Z", "2026-01-01T24:00:00Z",
            "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "2026-01-01 00:00:00Z", "2026-01-01t00:00:00Z",
            "2026-01-01T00:00:00z", "2026-01-01T00:00:00", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.1234567890Z",
            "2026-01-01T00:00:00+0100", "2026-01-01T00:00:00+24:00", "10000-01-01T00:00:00Z", "0000-12-31T23:59:59Z",
            "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01", "26-01-01T00:00:00Z", "",
        ])
    func invalidTimestamps(text: String) {
        let error = Self.error(#"{"at":"\#(text)"}"#, as: GlimpseTimelineV1.ProviderError.self)
        #expect(error?.path == "at", "\(text): \(error?.description ?? "accepted")")
        #expect(Self.error(#"{"at":1767225600}"#, as: GlimpseTimelineV1.ProviderError.self)?.path == "at")
    }

    @Test(
        "invalid durations are refused",
        arguments: [
            "1", "1.5", "s", "-s", ".5s", "1.s", "1.0000000001s", "315576000001s", "+1s", "1 s", "1e3s", "--1s", "1S",
        ])
    func invalidDurations(text: String) {
        let error = Self.error(#"{"duration":"\#(text)"}"#, as: GlimpseWidgetV1.TimelineEntryRelevance.self)
        #expect(error?.path == "duration", "\(text): \(error?.description ?? "accepted")")
    }

    @Test("errors say what is wrong")
    func messages() {
        #expect(Self.error(#"{"fInt32":2147483648}"#)?.description == "fInt32: 2147483648 is out of range for int32")
        #expect(Self.error(#"{"bogus":1}"#)?.description == "bogus: no such field in glimpse.testing.v1.AllKinds")
        #expect(
            Self.error(#"{"fInt32":1,"f_int32":2}"#)?.description == #"f_int32: field given twice (also as "fInt32")"#)
        #expect(
            Self.error(#"{"cString":"a","cInt64":"1"}"#)?.description
                == #"cInt64: oneof choice is already set (by "cString")"#)
        #expect(
            Self.error(#"{"fEnum":"MOOD_NOPE"}"#)?.description
                == #"fEnum: "MOOD_NOPE" is not a value of glimpse.testing.v1.Mood"#)
        #expect(Self.error("[]")?.description == "expected an object (glimpse.testing.v1.AllKinds), found an array")
    }

    @Test("deep nesting is refused by the parser, not the stack")
    func deepNesting() throws {
        let depth = JSONParser.maximumDepth + 10
        let deep = String(repeating: #"{"left":"#, count: depth) + "{}" + String(repeating: "}", count: depth)
        let error = Self.error(deep, as: GlimpseTestingV1.Tree.self)
        #expect(error?.path == "" && error?.reason.contains("nesting") == true)
        let ok = String(repeating: #"{"left":"#, count: 40) + #"{"label":"leaf"}"# + String(repeating: "}", count: 40)
        var tree = try Self.decode(ok, as: GlimpseTestingV1.Tree.self)
        for _ in 0..<40 { tree = try #require(tree.left) }
        #expect(tree.label == "leaf")
    }

    // MARK: The RPC layer's JSON coders

    @Test("ProtoJSONSerializer writes the canonical JSON; ProtoJSONDeserializer reads it back")
    func coders() throws {
        let m = AllKinds(fInt64: 5, rString: ["x"])
        let bytes = try ProtoJSONSerializer<AllKinds>().serialize(m)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"fInt64":"5","rString":["x"]}"#)
        #expect(try ProtoJSONDeserializer<AllKinds>().deserialize(bytes) == m)
        #expect(try ProtoJSONDeserializer<AllKinds>().deserialize([]) == AllKinds())
        #expect(
            try ProtoJSONDeserializer<AllKinds>(ignoringUnknownFields: true).deserialize(Array(#"{"x":1}"#.utf8))
                == AllKinds())
    }

    @Test("text holding U+0000 is refused with INVALID_ARGUMENT naming the field, as JSON and as protobuf")
    func nulRefusedOnBothFaces() throws {
        let json = #expect(throws: ProtoJSONError.self) {
            try ProtoJSONDeserializer<AllKinds>().deserialize(Array(#"{"rMessage":[{"name":"a\u0000b"}]}"#.utf8))
        }
        #expect(
            json?.rpcStatus
                == Status(code: .invalidArgument, message: "rMessage[0].name: text holding U+0000 (NUL) is refused"))
        // As protobuf: r_message (30) holding Leaf{name: "a\0b"}.
        let proto = #expect(throws: ProtoDecodingError.self) {
            try ProtoDeserializer<AllKinds>().deserialize([0xf2, 0x01, 0x05, 0x0a, 0x03, 0x61, 0x00, 0x62])
        }
        #expect(
            proto?.rpcStatus
                == Status(
                    code: .invalidArgument,
                    message: "r_message[0].name: text holding U+0000 (NUL) is refused (glimpse.testing.v1.AllKinds)"))
        // Bytes that are not protobuf at all stay INTERNAL, as grpc-core answers them.
        let malformed = #expect(throws: ProtoDecodingError.self) {
            try ProtoDeserializer<AllKinds>().deserialize([0x0a])
        }
        #expect(malformed?.rpcStatus.code == .internal)
    }

    @Test("a request the JSON deserializer refuses carries INVALID_ARGUMENT and the error's description")
    func rejection() {
        let error = #expect(throws: ProtoJSONError.self) {
            try ProtoJSONDeserializer<AllKinds>().deserialize(Array(#"{"fInt32":"x"}"#.utf8))
        }
        let status = error?.rpcStatus
        #expect(status == Status(code: .invalidArgument, message: #"fInt32: "x" is not an integer (int32)"#))
    }

    @Test("served in process, bad JSON ends the call with INVALID_ARGUMENT and the path")
    func servedInProcess() async throws {
        struct Echo: RPCService {
            static let method = MethodDescriptor(service: "glimpse.testing.v1.Echo", method: "Echo")
            func registerMethods(with router: inout RPCRouter) {
                router.registerUnary(
                    Self.method, deserializer: ProtoJSONDeserializer<AllKinds>(),
                    serializer: ProtoJSONSerializer<AllKinds>()
                ) { request, _ in ServerResponse(message: request.message) }
            }
        }
        let transport = InProcessTransport()
        let server = GRPCServer(transport: transport.server, services: [Echo()])
        let client = GRPCClient(transport: transport.client)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.serve() }
            group.addTask { try await client.run() }
            defer {
                client.beginGracefulShutdown()
                server.beginGracefulShutdown()
            }
            let raw = RawBytesCoder()
            let good = try await client.unary(
                request: ClientRequest(message: Array(#"{"f_int64":7}"#.utf8)), method: Echo.method, serializer: raw,
                deserializer: raw)
            #expect(String(decoding: good.message, as: UTF8.self) == #"{"fInt64":"7"}"#)
            let error = await #expect(throws: RPCError.self) {
                try await client.unary(
                    request: ClientRequest(message: Array(#"{"rMessage":[{"weight":true}]}"#.utf8)),
                    method: Echo.method,
                    serializer: raw, deserializer: raw)
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == "rMessage[0].weight: expected an integer (int32), found true")
        }
    }
}
