import Foundation
import GlimpseMessages
import GlimpseTestMessages
import Testing

/// Cross-checks with stock protobuf (Python's `protobuf`), through files made by
/// Golden/golden.py and committed. golden.py verify (run by scripts/test.sh) decodes the
/// committed .swift.bin files with stock protobuf; these tests keep them honest.
@Suite("Golden files shared with stock protobuf")
struct GoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Decodes `bytes` as the type of `sample`.
    static func decode<M: GlimpseMessage>(like sample: M, _ bytes: [UInt8]) throws -> AnyHashable {
        AnyHashable(try M(serializedBytes: bytes))
    }

    @Test("bytes stock protobuf made decode to the values built in Swift", arguments: GoldenCases.all.map(\.name))
    func pythonBytesDecode(name: String) throws {
        let expected = try #require(GoldenCases.all.first { $0.name == name }).value
        let decoded = try Self.decode(like: expected, try Self.bytes("\(name).python.bin"))
        #expect(decoded == AnyHashable(expected))
    }

    /// all_kinds is left out: its map has an entry whose key is `false`, and protobuf-c
    /// leaves a default key or value out of a map entry where stock protobuf writes it.
    /// Both encodings are valid and decode alike (the other two tests check that).
    @Test(
        "Swift encodes each case to the very bytes stock protobuf makes (deterministic)",
        arguments: GoldenCases.all.map(\.name).filter { $0 != "all_kinds" })
    func swiftBytesMatchPython(name: String) throws {
        let value = try #require(GoldenCases.all.first { $0.name == name }).value
        #expect(try value.serializedBytes() == (try Self.bytes("\(name).python.bin")))
    }

    @Test("the committed .swift.bin files are what Swift encodes now", arguments: GoldenCases.all.map(\.name))
    func committedSwiftBytesAreCurrent(name: String) throws {
        let value = try #require(GoldenCases.all.first { $0.name == name }).value
        let encoded = try value.serializedBytes()
        let file = Self.folder.appendingPathComponent("\(name).swift.bin")
        if ProcessInfo.processInfo.environment["GLIMPSE_WRITE_GOLDEN"] == "1" {
            try Data(encoded).write(to: file)
        }
        #expect(encoded == (try Self.bytes("\(name).swift.bin")))
    }
}
