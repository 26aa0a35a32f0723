import RPCCore
import Testing

@Suite("Base64 for -bin metadata")
struct Base64Tests {
    @Test(arguments: [
        ([UInt8](), ""), ([0], "AA=="), ([0, 1], "AAE="), ([0, 1, 2], "AAEC"),
        (Array("hello world".utf8), "aGVsbG8gd29ybGQ="), ([0xFF, 0xFE, 0xFD, 0xFC], "//79/A=="),
    ])
    func encodesPadded(_ bytes: [UInt8], _ text: String) {
        #expect(Base64.encode(bytes) == text)
        #expect(Base64.decode(Array(text.utf8)) == bytes)
    }

    @Test(arguments: [("AA", [UInt8(0)]), ("AAE", [0, 1]), ("aGVsbG8gd29ybGQ", Array("hello world".utf8))])
    func decodesUnpadded(_ text: String, _ bytes: [UInt8]) {
        #expect(Base64.decode(Array(text.utf8)) == bytes)
    }

    @Test(arguments: ["A", "A===", "AA=A", "AA*=", "====", "AAAAA"])
    func rejectsMalformed(_ text: String) {
        #expect(Base64.decode(Array(text.utf8)) == nil)
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Base64.decode(Array(Base64.encode(bytes).utf8)) == bytes)
    }
}

@Suite("grpc-message percent-encoding")
struct PercentEncodingTests {
    static let special = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"

    @Test func encodesEverythingOutsidePrintableASCIIAndPercent() {
        #expect(PercentEncoding.encode("a b%c") == "a b%25c")
        #expect(PercentEncoding.encode("\t\n") == "%09%0A")
        #expect(PercentEncoding.encode("☺") == "%E2%98%BA")
        #expect(PercentEncoding.encode("plain") == "plain")
    }

    @Test func roundTripsTheInteropMessage() {
        let encoded = PercentEncoding.encode(Self.special)
        #expect(encoded.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E })
        #expect(PercentEncoding.decode(encoded) == Self.special)
    }

    @Test(arguments: [("%", "%"), ("%4", "%4"), ("%zz", "%zz"), ("100%", "100%"), ("%41%", "A%"), ("a%2", "a%2")])
    func leavesInvalidEscapesAsTheyAre(_ encoded: String, _ decoded: String) {
        #expect(PercentEncoding.decode(encoded) == decoded)
    }

    @Test func replacesBytesThatAreNotUTF8() {
        #expect(PercentEncoding.decode("%FF") == "\u{FFFD}")
    }

    @Test("a space at either end is escaped: a header value may not begin or end with one")
    func spacesAtTheEnds() {
        #expect(PercentEncoding.encode("ends with a space ") == "ends with a space%20")
        #expect(PercentEncoding.encode(" starts") == "%20starts")
        #expect(PercentEncoding.encode(" ") == "%20")
        #expect(PercentEncoding.decode(PercentEncoding.encode("  both  ")) == "  both  ")
    }

    @Test("past the limit the message is cut between characters, never inside an escape, and marked")
    func truncation() {
        let limit = 64
        for message in [
            String(repeating: "a", count: 100), String(repeating: "é", count: 100), String(repeating: "x😈", count: 50),
        ] {
            let encoded = PercentEncoding.encode(message, limit: limit)
            #expect(encoded.utf8.count <= limit)
            #expect(encoded.hasSuffix(PercentEncoding.truncationMarker))
            let decoded = PercentEncoding.decode(encoded)
            #expect(decoded.hasSuffix("…[truncated]"))
            #expect(message.hasPrefix(decoded.dropLast("…[truncated]".count)))
            #expect(!decoded.contains("\u{FFFD}"))
        }
        #expect(PercentEncoding.encode("short", limit: limit) == "short")
        #expect(
            PercentEncoding.encode(String(repeating: "b", count: 64), limit: limit) == String(repeating: "b", count: 64)
        )
    }
}

@Suite("grpc-timeout")
struct GRPCTimeoutTests {
    @Test(arguments: [
        ("1H", Duration.seconds(3600)), ("2M", .seconds(120)), ("3S", .seconds(3)), ("4m", .milliseconds(4)),
        ("5u", .microseconds(5)), ("6n", .nanoseconds(6)), ("99999999S", .seconds(99_999_999)), ("0m", .zero),
    ])
    func parsesEveryUnit(_ text: String, _ duration: Duration) {
        #expect(GRPCTimeout.parse(text) == duration)
    }

    @Test(arguments: ["", "S", "1", "1x", "123456789S", "-1S", "1.5S", " 1S", "1s"])
    func rejectsMalformed(_ text: String) {
        #expect(GRPCTimeout.parse(text) == nil)
    }

    @Test(arguments: [
        Duration.nanoseconds(1), .microseconds(1500), .milliseconds(250), .seconds(1), .seconds(5000),
        .seconds(86_400 * 400),
    ])
    func formatsWithinEightDigitsAndNeverShorter(_ duration: Duration) throws {
        let text = GRPCTimeout.format(duration)
        #expect(text.count <= 9)
        let parsed = try #require(GRPCTimeout.parse(text))
        #expect(parsed >= duration)
    }

    @Test func formatsExpiredDurationsAsOneNanosecond() {
        #expect(GRPCTimeout.format(.zero) == "1n")
        #expect(GRPCTimeout.format(.seconds(-3)) == "1n")
    }
}

@Suite("Method descriptors")
struct MethodDescriptorTests {
    @Test func parsesAPath() throws {
        let descriptor = try #require(MethodDescriptor(path: "/pkg.Service/Method"))
        #expect(descriptor.service == "pkg.Service")
        #expect(descriptor.method == "Method")
        #expect(descriptor.path == "/pkg.Service/Method")
    }

    @Test(arguments: ["", "/", "//", "/svc", "/svc/", "//m", "svc/m", "/a/b/c"])
    func rejectsMalformedPaths(_ path: String) {
        #expect(MethodDescriptor(path: path) == nil)
    }
}
