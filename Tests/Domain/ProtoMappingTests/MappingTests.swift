import Foundation
import Testing
import GlimpseVocabulary
import GlimpseMessages
import ProtoMapping
import RPCCore

@Suite("Wire ↔ vocabulary mapping")
struct MappingTests {
    @Test("every family maps to the wire and back; UNSPECIFIED and unknown values name the field")
    func families() throws {
        for family in GlimpseVocabulary.WidgetFamily.allCases {
            #expect(try GlimpseVocabulary.WidgetFamily(family.wire, field: "family") == family)
        }
        #expect(throws: InvalidField("place.family", "a widget family is required")) {
            try GlimpseVocabulary.WidgetFamily(.unspecified, field: "place.family")
        }
        #expect(throws: InvalidField("family", "unknown widget family 42")) {
            try GlimpseVocabulary.WidgetFamily(.unrecognized(42), field: "family")
        }
    }

    @Test("timestamps round-trip to the nanosecond; out of range is INVALID_ARGUMENT naming the field")
    func timestamps() throws {
        let date = Date(timeIntervalSince1970: 1_767_225_600.25)
        #expect(try GoogleProtobuf.Timestamp(date).date(field: "at") == date)
        var bad = GoogleProtobuf.Timestamp()
        bad.seconds = 253_402_300_800
        #expect(throws: InvalidField.self) { try bad.date(field: "entries[0].date") }
        #expect(InvalidField("entries[0].date", "x").rpcError.status.code == .invalidArgument)
        bad.seconds = 0
        bad.nanos = -1
        #expect(throws: InvalidField("at", "nanos -1 outside 0..<1e9")) { try bad.date(field: "at") }
    }

    @Test(
        "parameter values round-trip; an empty value names its key",
        arguments: [
            TypedValue.string("Coco"), .int(-7), .double(2.5), .bool(true),
            .date(Date(timeIntervalSince1970: 1_767_225_600)), .bytes([0, 255]),
        ])
    func values(value: TypedValue) throws {
        #expect(try TypedValue(value.wire, field: "v") == value)
        #expect(throws: InvalidField("configuration[\"film\"]", "a value is required")) {
            try TypedValue.map(["film": GlimpseWidgetV1.ParameterValue()], field: "configuration")
        }
    }

    @Test("a parameter declaration's default must have its type")
    func parameterDeclaration() throws {
        var declaration = GlimpseAppV1.ParameterDeclaration()
        declaration.name = "rating"
        declaration.type = .int
        declaration.defaultValue = TypedValue.int(5).wire
        #expect(
            try IntentParameter(declaration, field: "p")
                == IntentParameter(name: "rating", type: .int, defaultValue: .int(5)))
        declaration.defaultValue = TypedValue.string("five").wire
        #expect(throws: InvalidField("p.default_value", "is string, the parameter is int")) {
            try IntentParameter(declaration, field: "p")
        }
    }
}
