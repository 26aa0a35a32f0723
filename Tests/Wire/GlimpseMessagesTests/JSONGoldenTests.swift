import Foundation
import GlimpseJSON
import GlimpseMessages
import GlimpseTestMessages
import Testing

/// proto3 JSON held to Python's `json_format`, through files Tests/Peers/json_golden.py
/// writes (committed; Tests/Peers/test_json_golden.py checks they are what stock protobuf
/// makes now): for each case the message's protobuf bytes, its canonical JSON, and for
/// the parsing cases JSON in the other accepted forms.
@Suite("proto3 JSON golden files shared with Python's json_format")
struct JSONGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("JSONGolden")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The golden JSON text without the file's final newline.
    static func json(_ name: String) throws -> [UInt8] {
        var text = try bytes(name)
        if text.last == UInt8(ascii: "\n") { text.removeLast() }
        return text
    }

    /// Every message type a case may name.
    static let types: [String: any ProtoJSONMessage.Type] = Dictionary(
        uniqueKeysWithValues: ([
            GlimpseTestingV1.AllKinds.self, GlimpseTestingV1.Tree.self, GlimpseTestingV1.LeafV2.self,
            GlimpseWidgetV1.Timeline.self, GlimpseWidgetV1.TimelineEntryRelevance.self,
            GlimpseWidgetV1.ParameterValue.self,
            GlimpseTimelineV1.PlacementStatus.self, GlimpseTimelineV1.ProviderError.self,
            GlimpseActivityV1.ActivityChange.self, GlimpseAppV1.AppManifest.self,
        ] as [any ProtoJSONMessage.Type]).map { ($0.protoMessageName, $0) })

    /// index.txt: `<case> <full message name>` per line.
    static let cases: [(name: String, type: String)] = {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("index.txt"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (String(parts[0]), String(parts[1]))
        }
    }()

    static func type(of name: String) -> (any ProtoJSONMessage.Type)? {
        cases.first { $0.name == name }.flatMap { types[$0.type] }
    }

    @Test("the golden folder has its cases, and every case's type is known here")
    func index() {
        #expect(Self.cases.count >= 20)
        for c in Self.cases { #expect(Self.types[c.type] != nil, "no Swift type for \(c.type) (case \(c.name))") }
    }

    @Test("binpb -> Swift -> JSON is byte for byte what json_format writes", arguments: cases.map(\.name))
    func swiftWritesTheGoldenJSON(name: String) throws {
        let type = try #require(Self.type(of: name))
        try Self.checkEncoding(type, name)
    }

    static func checkEncoding<M: ProtoJSONMessage>(_: M.Type, _ name: String) throws {
        let message = try M(serializedBytes: try bytes("\(name).binpb"))
        let expected = try json("\(name).json")
        let written = message.jsonBytes()
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test("golden JSON (and the alternative input forms) -> Swift is the binpb message", arguments: cases.map(\.name))
    func swiftReadsTheGoldenJSON(name: String) throws {
        let type = try #require(Self.type(of: name))
        try Self.checkDecoding(type, name)
    }

    static func checkDecoding<M: ProtoJSONMessage>(_: M.Type, _ name: String) throws {
        let expected = try M(serializedBytes: try bytes("\(name).binpb"))
        var inputs = ["\(name).json"]
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(name).input.json").path) {
            inputs.append("\(name).input.json")
        }
        for input in inputs {
            let decoded = try M(jsonBytes: try bytes(input))
            // Compared through protobuf-c's deterministic encoding, which also holds for NaN
            // (NaN != NaN as a Swift value), then through the wire and back.
            #expect(try decoded.serializedBytes() == expected.serializedBytes(), "\(input)")
            let again = try M(serializedBytes: try decoded.serializedBytes())
            #expect(try again.serializedBytes() == expected.serializedBytes(), "\(input)")
            #expect(again.jsonBytes() == expected.jsonBytes(), "\(input)")
        }
    }

    /// numbers.txt: `f <bits> <json>` and `d <bits> <json>`.
    static func numbers() throws -> (floats: [(Float, String)], doubles: [(Double, String)]) {
        let text = try String(contentsOf: folder.appendingPathComponent("numbers.txt"), encoding: .utf8)
        var floats: [(Float, String)] = []
        var doubles: [(Double, String)] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts[0] == "f" {
                floats.append((Float(bitPattern: UInt32(parts[1], radix: 16)!), String(parts[2])))
            } else {
                doubles.append((Double(bitPattern: UInt64(parts[1], radix: 16)!), String(parts[2])))
            }
        }
        return (floats, doubles)
    }

    @Test("floats and doubles are written as json_format writes them, and read back exactly")
    func numberFormatting() throws {
        let (floats, doubles) = try Self.numbers()
        #expect(floats.count > 1000 && doubles.count > 500)
        let message = GlimpseTestingV1.AllKinds(rDouble: doubles.map(\.0), rFloat: floats.map(\.0))
        let value = message.protoJSONValue()
        guard case .array(let writtenFloats)? = value["rFloat"], case .array(let writtenDoubles)? = value["rDouble"]
        else {
            Issue.record("no rFloat/rDouble in \(value)")
            return
        }
        var mismatches: [String] = []
        for ((f, expected), written) in zip(floats, writtenFloats)
        where String(decoding: written.serialized(), as: UTF8.self) != expected {
            mismatches.append(
                "float \(f) (0x\(String(f.bitPattern, radix: 16))): wrote \(String(decoding: written.serialized(), as: UTF8.self)), json_format \(expected)"
            )
        }
        for ((d, expected), written) in zip(doubles, writtenDoubles)
        where String(decoding: written.serialized(), as: UTF8.self) != expected {
            mismatches.append(
                "double \(d) (0x\(String(d.bitPattern, radix: 16))): wrote \(String(decoding: written.serialized(), as: UTF8.self)), json_format \(expected)"
            )
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(10))")
        let back = try GlimpseTestingV1.AllKinds(jsonBytes: message.jsonBytes())
        #expect(back.rFloat.map(\.bitPattern) == floats.map(\.0.bitPattern))
        #expect(back.rDouble.map(\.bitPattern) == doubles.map(\.0.bitPattern))
    }
}
