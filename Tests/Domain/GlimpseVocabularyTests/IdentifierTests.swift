import Foundation
import GlimpseVocabulary
import Testing

@Suite struct IdentifierTests {
    /// The hand-written description and order are Foundation's `uuidString` and its order.
    @Test func anActivityIDReadsAndSortsAsItsUUIDString() {
        var generator = SystemRandomNumberGenerator()
        let ids =
            (0..<500).map { _ in
                ActivityID(
                    UUID(
                        uuid: withUnsafeBytes(of: (generator.next(), generator.next())) { raw in
                            raw.load(as: uuid_t.self)
                        }))
            } + [ActivityID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))]
        for id in ids {
            #expect(id.description == id.uuid.uuidString)
            #expect(id.uuid.hyphenatedHex(uppercase: false) == id.uuid.uuidString.lowercased())
        }
        #expect(ids.sorted().map(\.description) == ids.map(\.uuid.uuidString).sorted())
        #expect(ActivityID(ids[0].description) == ids[0])
    }
}
