import EngineHosting
import Foundation
import Testing

/// The snapshot format as a codec: exact, canonical, compact, and loud about bytes it
/// cannot read.
@Suite struct SnapshotCoderTests {
    enum Shape: Codable, Equatable {
        case point
        case circle(radius: Double)
        case labelled(String, Int?)
    }

    struct Key: Codable, Hashable {
        var app: String
        var slot: UInt32
    }

    struct Everything: Codable, Equatable {
        var flag = true
        var small: Int8 = -128
        var large = Int64.min
        var unsigned = UInt64.max
        var plain = -1
        var text = "Wetter · 天気 🌦"
        var empty = ""
        var real = -0.0
        var infinite = Double.infinity
        var single: Float = 0.1
        var missing: Int?
        var present: String? = "here"
        var nested: Int?? = .some(nil)
        var bytes: [UInt8] = [0, 1, 2, 255]
        var data = Data([9, 8, 7])
        var packed: ContiguousArray<UInt8> = [4, 5]
        var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var when = Date(timeIntervalSinceReferenceDate: 789_123_456.125)
        var list: [Double?] = [1.5, nil, 3]
        var shapes: [Shape] = [.point, .circle(radius: 2), .labelled("x", nil), .labelled("y", 7)]
        var byName: [String: Int] = ["b": 2, "a": 1, "c": 3]
        var byKey: [Key: [String]] = [Key(app: "x", slot: 1): ["p"], Key(app: "a", slot: 9): []]
        var members: Set<String> = ["kiwi", "apple", "fig"]
        var grid: [[UInt16]] = [[1, 2], [], [3]]
    }

    @Test func everyKindOfValueRoundTripsExactly() throws {
        let value = Everything()
        let bytes = try SnapshotEncoder().encode(value)
        let decoded = try SnapshotDecoder().decode(Everything.self, from: bytes)
        #expect(decoded == value)
        #expect(decoded.real.sign == .minus)
        #expect(decoded.nested == .some(nil))
    }

    @Test func nanKeepsItsBitPattern() throws {
        let nan = Double(nan: 0x1234, signaling: false)
        let decoded = try SnapshotDecoder().decode(Double.self, from: try SnapshotEncoder().encode(nan))
        #expect(decoded.bitPattern == nan.bitPattern)
    }

    @Test func equalDictionariesAndSetsGiveEqualBytesWhateverTheirInsertionOrder() throws {
        var forwards: [Int: String] = [:]
        var backwards: [Int: String] = [:]
        for n in 0..<500 { forwards[n] = "\(n)" }
        for n in (0..<500).reversed() { backwards[n] = "\(n)" }
        backwards.reserveCapacity(4_000)  // another table size, another iteration order
        #expect(try SnapshotEncoder().encode(forwards) == SnapshotEncoder().encode(backwards))
        let a = Set((0..<300).map { "member \($0)" })
        var b = Set<String>(minimumCapacity: 2_000)
        for n in (0..<300).reversed() { b.insert("member \(n)") }
        #expect(try SnapshotEncoder().encode(a) == SnapshotEncoder().encode(b))
    }

    @Test func bytesAndKeysCostLittle() throws {
        struct Record: Codable { var date: Double; var slot: UInt32; var live: Bool }
        let blob = [UInt8](repeating: 7, count: 1_000)
        #expect(try SnapshotEncoder().encode(blob).count <= 1_004)
        // Each key name is written once: a record costs its values and a byte per key.
        let records = (0..<1_000).map { Record(date: Double($0), slot: UInt32($0), live: true) }
        #expect(try SnapshotEncoder().encode(records).count < 1_000 * (8 + 2 + 1 + 3) + 64)
    }

    @Test func aChangedLayoutFailsToReadRatherThanReadingGarbage() throws {
        struct Before: Codable { var count = 3; var label = "a" }
        struct After: Codable { var count: Int; var title: String }
        let bytes = try SnapshotEncoder().encode(Before())
        #expect(throws: SnapshotFormatError.self) { try SnapshotDecoder().decode(After.self, from: bytes) }
    }

    @Test func leftoverBytesFailToRead() throws {
        let bytes = try SnapshotEncoder().encode([1, 2, 3]) + [0]
        #expect(throws: SnapshotFormatError.self) { try SnapshotDecoder().decode([Int].self, from: bytes) }
    }

    @Test func everyTruncationFailsToReadWithoutTrapping() throws {
        let bytes = try SnapshotEncoder().encode(Everything())
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self) {
                try SnapshotDecoder().decode(Everything.self, from: Array(bytes.prefix(length)))
            }
        }
    }
}
