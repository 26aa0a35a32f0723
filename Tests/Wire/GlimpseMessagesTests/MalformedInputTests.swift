import GlimpseMessages
import GlimpseTestMessages
import Testing

import CHeapProbe

/// Every malformed input ends in a `ProtoDecodingError`: never a crash, never a leak.
@Suite("Malformed input")
struct MalformedInputTests {
    /// Decodes as three schemas (flat, recursive, widget tree); returns how many threw.
    @discardableResult
    static func decodeAll(_ bytes: [UInt8]) -> Int {
        var threw = 0
        do { _ = try FK.AllKinds(serializedBytes: bytes) } catch { threw += 1 }
        do { _ = try FK.Tree(serializedBytes: bytes) } catch { threw += 1 }
        do { _ = try GlimpseWidgetV1.Timeline(serializedBytes: bytes) } catch { threw += 1 }
        return threw
    }

    static func expectError<M: GlimpseMessage>(_ type: M.Type, _ bytes: [UInt8], _ error: ProtoDecodingError) {
        #expect(throws: error) { try M(serializedBytes: bytes) }
    }

    @Test("a known field with the wrong wire type is malformed")
    func wrongWireType() {
        let message = "glimpse.testing.v1.AllKinds"
        Self.expectError(FK.AllKinds.self, [0x48, 0x01], .malformed(message: message))  // f_string as varint
        Self.expectError(FK.AllKinds.self, [0x55, 1, 2, 3, 4], .malformed(message: message))  // f_message as fixed32
        Self.expectError(FK.AllKinds.self, [0x0a, 0x00], .malformed(message: message))  // f_double as bytes
    }

    @Test("absurd and overrunning lengths are malformed")
    func absurdLengths() {
        let message = "glimpse.testing.v1.AllKinds"
        Self.expectError(
            FK.AllKinds.self, [0x4a] + [UInt8](repeating: 0xff, count: 9) + [0x01], .malformed(message: message))
        Self.expectError(FK.AllKinds.self, [0x4a, 0x05, 0x61], .malformed(message: message))
        Self.expectError(FK.AllKinds.self, [0x18] + [UInt8](repeating: 0x80, count: 11), .malformed(message: message))
        Self.expectError(FK.Tree.self, [0x12, 0x7f, 0x0a], .malformed(message: "glimpse.testing.v1.Tree"))
    }

    @Test("strings that are not UTF-8 are refused, wherever they sit")
    func invalidUTF8() {
        let bad: [UInt8] = [0xff, 0xfe]
        Self.expectError(
            FK.AllKinds.self, [0x4a, 0x02] + bad,
            .invalidUTF8(message: "glimpse.testing.v1.AllKinds", field: "f_string"))
        Self.expectError(
            FK.AllKinds.self, [0xea, 0x01, 0x02] + bad,
            .invalidUTF8(message: "glimpse.testing.v1.AllKinds", field: "r_string[0]"))
        Self.expectError(
            FK.AllKinds.self, [0x9a, 0x03, 0x02] + bad,
            .invalidUTF8(message: "glimpse.testing.v1.AllKinds", field: "c_string"))
        Self.expectError(
            FK.AllKinds.self, [0x52, 0x04, 0x0a, 0x02] + bad,
            .invalidUTF8(message: "glimpse.testing.v1.AllKinds", field: "f_message.name"))
        // a map key: field 61 entry {1: <bad>}
        Self.expectError(
            FK.AllKinds.self, [0xea, 0x03, 0x04, 0x0a, 0x02] + bad,
            .invalidUTF8(message: "glimpse.testing.v1.AllKinds", field: "m_string_int32[0].key"))
        // an overlong encoding of "/" and a lone surrogate
        Self.expectError(
            FK.Leaf.self, [0x0a, 0x02, 0xc0, 0xaf], .invalidUTF8(message: "glimpse.testing.v1.Leaf", field: "name"))
        Self.expectError(
            FK.Leaf.self, [0x0a, 0x03, 0xed, 0xa0, 0x80],
            .invalidUTF8(message: "glimpse.testing.v1.Leaf", field: "name"))
    }

    @Test(
        "a string holding U+0000 is refused, named by its path, wherever it sits (protobuf-c kept only what came before it)"
    )
    func nulInStrings() {
        let kinds = "glimpse.testing.v1.AllKinds"
        let nul: [UInt8] = [0x6e, 0x75, 0x6c, 0x00, 0x73, 0x75, 0x66]  // "nul\0suf"
        let leafWithNUL: [UInt8] = [0x0a, UInt8(nul.count)] + nul
        Self.expectError(
            FK.AllKinds.self, [0x4a, UInt8(nul.count)] + nul, .stringContainsNUL(message: kinds, field: "f_string"))
        Self.expectError(
            FK.AllKinds.self, [0x9a, 0x03, UInt8(nul.count)] + nul,
            .stringContainsNUL(message: kinds, field: "c_string"))
        // r_string: "ok", then the bad one
        Self.expectError(
            FK.AllKinds.self, [0xea, 0x01, 0x02, 0x6f, 0x6b, 0xea, 0x01, UInt8(nul.count)] + nul,
            .stringContainsNUL(message: kinds, field: "r_string[1]"))
        Self.expectError(
            FK.AllKinds.self, [0x52, UInt8(leafWithNUL.count)] + leafWithNUL,
            .stringContainsNUL(message: kinds, field: "f_message.name"))
        // r_message: an empty Leaf, then the bad one
        Self.expectError(
            FK.AllKinds.self, [0xf2, 0x01, 0x00, 0xf2, 0x01, UInt8(leafWithNUL.count)] + leafWithNUL,
            .stringContainsNUL(message: kinds, field: "r_message[1].name"))
        // map keys and values: m_string_int32 {1: bad}, m_int64_string {1: 5, 2: bad}, m_bool_leaf {1: true, 2: Leaf}
        Self.expectError(
            FK.AllKinds.self, [0xea, 0x03, UInt8(nul.count + 2), 0x0a, UInt8(nul.count)] + nul,
            .stringContainsNUL(message: kinds, field: "m_string_int32[0].key"))
        Self.expectError(
            FK.AllKinds.self, [0xf2, 0x03, UInt8(nul.count + 4), 0x08, 0x05, 0x12, UInt8(nul.count)] + nul,
            .stringContainsNUL(message: kinds, field: "m_int64_string[0].value"))
        Self.expectError(
            FK.AllKinds.self,
            [0xfa, 0x03, UInt8(leafWithNUL.count + 4), 0x08, 0x01, 0x12, UInt8(leafWithNUL.count)] + leafWithNUL,
            .stringContainsNUL(message: kinds, field: "m_bool_leaf[0].value.name"))
        // long enough for the memchr path, the NUL last
        let long = [UInt8](repeating: 0x61, count: 199) + [0x00]
        Self.expectError(
            FK.Leaf.self, [0x0a, 0xc8, 0x01] + long,
            .stringContainsNUL(message: "glimpse.testing.v1.Leaf", field: "name"))
    }

    @Test("a string is decoded whole: every byte the wire held, none cut")
    func stringsAreWhole() throws {
        let text = String(repeating: "é☺", count: 40) + "end"
        var leaf = FK.Leaf()
        leaf.name = text
        #expect(try FK.Leaf(serializedBytes: leaf.serializedBytes()).name == text)
        #expect(try FK.Leaf(serializedBytes: [0x0a, 0x03, 0x61, 0x62, 0x63]).name == "abc")
    }

    @Test("nesting deeper than the limit is refused before protobuf-c recurses into it")
    func tooDeep() {
        // Tree.left (field 2) nested 100,000 times: would exhaust the C stack if unpacked.
        var bytes: [UInt8] = []
        for _ in 0..<100_000 {
            var length: [UInt8] = []
            var n = bytes.count
            repeat { length.append(UInt8(n & 0x7f) | (n > 0x7f ? 0x80 : 0)); n >>= 7 } while n > 0
            bytes = [0x12] + length + bytes
        }
        Self.expectError(FK.Tree.self, bytes, .tooDeep(message: "glimpse.testing.v1.Tree"))
        // The widget tree is recursive too: View -> Gauge -> View …
        var view = GlimpseWidgetV1.View()
        for _ in 0..<60 {
            view = GlimpseWidgetV1.View(kind: .gauge(GlimpseWidgetV1.Gauge(label: view)))
        }
        #expect(throws: ProtoEncodingError.tooDeep(message: "glimpse.widget.v1.View")) { try view.serializedBytes() }
    }

    @Test("at least 100,000 hostile inputs: random bytes, truncations, bit flips, splices — no crash, no leak")
    func hostileInputs() async throws {
        var rng = SplitMix64(seed: 0x6c1d_5e55)
        let seeds = try [
            GoldenCases.allKinds.serializedBytes(), GoldenCases.pixarTimeline.serializedBytes(),
            GoldenCases.tree.serializedBytes(),
        ]
        var inputs = 0
        var threw = 0
        // Long and CPU-bound: yield now and then so the cooperative pool (two threads on
        // two cores) stays free for the other tests running beside this one.
        func run(_ bytes: [UInt8]) async {
            threw += Self.decodeAll(bytes)
            inputs += 1
            if inputs % 512 == 0 { await Task.yield() }
        }

        for _ in 0..<2_000 { await run((0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }) }
        let heapBefore = Self.heapInUse()
        for _ in 0..<55_000 { await run((0..<Int(rng.next() % 96)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }) }
        for seed in seeds {
            for cut in 0..<seed.count { await run(Array(seed[..<cut])) }
            for bit in 0..<(seed.count * 8) {
                var flipped = seed
                flipped[bit / 8] ^= 1 << UInt8(bit % 8)
                await run(flipped)
            }
        }
        for _ in 0..<30_000 {
            var mutated = seeds[Int(rng.next() % 3)]
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(mutated.count))
                switch rng.next() % 3 {
                case 0: mutated[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: mutated.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
                default: mutated.removeSubrange(at..<min(mutated.count, at + 1 + Int(rng.next() % 8)))
                }
                if mutated.isEmpty { break }
            }
            await run(mutated)
        }
        let heapAfter = Self.heapInUse()
        #expect(inputs >= 100_000)
        #expect(threw > inputs / 2, "most hostile inputs should be refused by at least one schema")
        // Every decode allocates in an arena that dies with it: the heap must not grow. A
        // leak of even one arena chunk per decode would be hundreds of megabytes here; the
        // margin absorbs what tests running in parallel hold at the two instants.
        #expect(heapAfter - heapBefore < 4 << 20, "heap grew by \(heapAfter - heapBefore) bytes")
    }

    static func heapInUse() -> Int { Int(glimpse_heap_in_use()) }
}

/// A small deterministic generator, so every run sees the same inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
