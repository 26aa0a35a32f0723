import Foundation
import GlimpseVocabulary
import Testing

@testable import TimelineEngine

@Suite("A placement record's saved form")
struct PlacementRecordFormatTests {
    static func sample() -> PlacementRecord {
        var record = PlacementRecord(
            id: PlacementID(rawValue: 42), kind: 3, app: 1, memberPosition: 7, family: .systemMedium,
            screen: .homeScreen)
        record.lastReloadAt = 1_000.5
        record.policyDueAt = 4_600.25
        record.isFetching = true
        record.fetchSequence = 9
        record.generation = 12
        record.shownIndex = 2
        record.failures = 1
        record.inFlightReason = .appRequest
        record.inFlightCharged = true
        record.live = false
        return record
    }

    static let floats = (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")

    static func saved(_ record: PlacementRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    /// The sample as the build before the flags were packed saved it (its synthesized Codable).
    static let savedBefore =
        #"{"app":1,"budgetAllowsAt":"-inf","failures":1,"family":"systemMedium","fetchSequence":9,"freeRequestedAt":"inf","generation":12,"id":42,"inFlightCharged":true,"inFlightReason":1,"inFlightSince":1000.5,"inFlightWantedAt":0,"kind":3,"lastReloadAt":1000.5,"live":false,"memberPosition":7,"nextEntryAt":"inf","pendingReason":0,"policyDueAt":4600.25,"requestedAt":"inf","requestedReason":1,"retryAt":"inf","screen":"homeScreen","shownIndex":2,"wakeAt":"inf"}"#

    @Test("keeps the keys and values of the build before it packed its flags: a snapshot either wrote reads back")
    func savedFormIsUnchanged() throws {
        #expect(try Self.saved(Self.sample()) == Self.savedBefore)
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: Self.floats.positiveInfinity, negativeInfinity: Self.floats.negativeInfinity,
            nan: Self.floats.nan)
        let read = try decoder.decode(PlacementRecord.self, from: Data(Self.savedBefore.utf8))
        #expect(try Self.saved(read) == Self.savedBefore)
        #expect(read.inFlightCharged && !read.live)
    }
}

@Suite("A placement record's size")
struct PlacementRecordSizeTests {
    @Test("a record takes 112 bytes: a million placements hold 112 MB of them")
    func recordSize() {
        #expect(MemoryLayout<PlacementRecord>.stride == 112)
    }
}
