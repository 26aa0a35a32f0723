import GlimpseMessages
import GlimpseTestMessages
import Testing

typealias FK = GlimpseTestingV1

@Suite("Round trips through protobuf-c")
struct RoundTripTests {
    func roundTrip<M: GlimpseMessage>(_ value: M) throws -> M {
        try M(serializedBytes: try value.serializedBytes())
    }

    @Test("every field kind survives encode then decode")
    func everyFieldKind() throws {
        let value = GoldenCases.allKinds
        #expect(try roundTrip(value) == value)
    }

    @Test("a message at its defaults encodes to no bytes and decodes back to defaults")
    func defaults() throws {
        #expect(try FK.AllKinds().serializedBytes().isEmpty)
        let decoded = try FK.AllKinds(serializedBytes: [UInt8]())
        #expect(decoded == FK.AllKinds())
        #expect(decoded.fString == "" && decoded.fBytes.isEmpty && decoded.fEnum == .unspecified)
        #expect(decoded.fMessage == nil && decoded.oInt32 == nil && decoded.choice == nil)
        #expect(decoded.mStringInt32.isEmpty && decoded.rMessage.isEmpty)
    }

    @Test("proto3 optional and message fields keep presence, even at their zero value")
    func presence() throws {
        let value = FK.AllKinds(fMessage: FK.Leaf(), oInt32: 0, oString: "", oBool: false, oEnum: .unspecified)
        #expect(try value.serializedBytes().isEmpty == false)
        let decoded = try roundTrip(value)
        #expect(decoded.fMessage == FK.Leaf())
        #expect(decoded.oInt32 == 0 && decoded.oString == "" && decoded.oBool == false)
        #expect(decoded.oEnum == .unspecified)
        #expect(decoded.oBytes == nil && decoded.oDouble == nil)
    }

    @Test(
        "each oneof member round trips as itself",
        arguments: [
            FK.AllKinds.Choice.cString(""), .cString("x"), .cInt64(-1), .cMessage(FK.Leaf(name: "m")),
            .cEnum(.happy), .cEnum(.unrecognized(40)), .cBytes([9]), .cEmpty,
        ])
    func oneofMembers(choice: FK.AllKinds.Choice) throws {
        #expect(try roundTrip(FK.AllKinds(choice: choice)).choice == choice)
    }

    @Test("enum values this schema does not know are kept, not dropped")
    func unknownEnumValues() throws {
        let value = FK.AllKinds(fEnum: .unrecognized(1234), rEnum: [.unrecognized(-9), .negative])
        let decoded = try roundTrip(value)
        #expect(decoded.fEnum == .unrecognized(1234))
        #expect(decoded.fEnum.rawValue == 1234)
        #expect(decoded.rEnum == [.unrecognized(-9), .negative])
        #expect(FK.Mood(rawValue: -3) == .negative)
    }

    @Test("fields a newer schema added are skipped by an older one")
    func unknownFieldsSkipped() throws {
        let newer = FK.LeafV2(name: "n", weight: 3, color: "red", tags: [1, 2], nested: FK.Leaf(name: "deep"))
        let older = try FK.Leaf(serializedBytes: try newer.serializedBytes())
        #expect(older == FK.Leaf(name: "n", weight: 3))
        #expect(try older.serializedBytes() == (try FK.Leaf(name: "n", weight: 3).serializedBytes()))
    }

    @Test("a map key seen twice on the wire keeps the last value")
    func mapLastWins() throws {
        // field 61 (map<string,int32>), two entries for "k": 1 then 2.
        let entry: (UInt8) -> [UInt8] = { v in [0xea, 0x03, 0x05, 0x0a, 0x01, 0x6b, 0x10, v] }
        let decoded = try FK.AllKinds(serializedBytes: entry(1) + entry(2))
        #expect(decoded.mStringInt32 == ["k": 2])
    }

    @Test("recursive messages nest up to the depth limit and round trip")
    func deepButAllowed() throws {
        var tree = FK.Tree(label: "leaf")
        for i in 0..<(ProtoLimits.maxDepth - 2) { tree = FK.Tree(label: "\(i)", left: tree) }
        #expect(try roundTrip(tree) == tree)
    }

    @Test("encoding refuses what protobuf-c cannot hold: NUL in a string, nesting past the limit")
    func encodingErrors() throws {
        #expect(throws: ProtoEncodingError.stringContainsNUL(message: "glimpse.testing.v1.Leaf", field: "name")) {
            try FK.Leaf(name: "a\u{0}b").serializedBytes()
        }
        #expect(throws: ProtoEncodingError.stringContainsNUL(message: "glimpse.testing.v1.AllKinds", field: "r_string"))
        {
            try FK.AllKinds(rString: ["ok", "\u{0}"]).serializedBytes()
        }
        var tree = FK.Tree(label: "leaf")
        for _ in 0..<(ProtoLimits.maxDepth + 5) { tree = FK.Tree(right: tree) }
        #expect(throws: ProtoEncodingError.tooDeep(message: "glimpse.testing.v1.Tree")) {
            try tree.serializedBytes()
        }
    }

    @Test("a widget timeline with a nested view tree round trips")
    func widgetTimeline() throws {
        let timeline = GoldenCases.pixarTimeline
        let decoded = try roundTrip(timeline)
        #expect(decoded == timeline)
        #expect(decoded.reloadPolicy == .atEnd)
        guard case .stack(let stack)? = decoded.entries.first?.view?.kind else {
            Issue.record("first entry is not a stack")
            return
        }
        #expect(stack.spacing == 4)
        guard case .gauge(let gauge)? = stack.children.last?.kind else {
            Issue.record("last child is not a gauge")
            return
        }
        #expect(gauge.label?.kind == .symbol(GlimpseWidgetV1.SymbolImage(systemName: "film")))
    }
}
