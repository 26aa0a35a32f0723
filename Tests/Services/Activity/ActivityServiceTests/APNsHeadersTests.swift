import ActivityService
import Foundation
import Testing

/// Apple's DuplicateHeaders rule: the first `apns-*` or `authorization` name seen twice,
/// whatever the number of headers (a push's handful, or a hostile client's thousands).
@Suite struct APNsHeadersTests {
    static func headers(_ names: [String]) -> [(name: String, value: String)] {
        names.map { (name: $0, value: "v") }
    }

    @Test(arguments: [0, 40])
    func theFirstRepeatedNameIsNamed(padding: Int) {
        let filler = (0..<padding).map { "x-filler-\($0)" }
        #expect(APNsHeaders.duplicated(in: Self.headers(filler + ["apns-topic", "apns-priority"])) == nil)
        #expect(
            APNsHeaders.duplicated(in: Self.headers(["apns-topic", "apns-id"] + filler + ["apns-id", "apns-topic"]))
                == "apns-id")
        #expect(
            APNsHeaders.duplicated(in: Self.headers(["authorization"] + filler + ["authorization"])) == "authorization")
        // Other repeated names are no concern of APNs.
        #expect(APNsHeaders.duplicated(in: Self.headers(["accept", "accept"] + filler)) == nil)
    }
}

/// `apns-id` is checked without Foundation's sscanf: it accepts what `UUID(uuidString:)` does,
/// except what only sscanf lets through (a space before a pair of digits, a signed pair).
@Suite struct APNsIDTests {
    @Test func sscanfsLeniencyIsNotAUUID() {
        for text in [" 23e4567-e89b-12d3-a456-426614174000", "123e4567--89b-12d3-a456-426614174000"] {
            #expect(UUID(uuidString: text) != nil)
            #expect(!ActivityServiceState.isCanonicalUUID(text), "\(text)")
        }
    }

    @Test(arguments: [
        "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
        "123e4567-E89B-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000",
        "", "not-a-uuid", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400",
        "123e4567-e89b-12d3-a456-4266141740000", "123e4567-e89b-12d3-a456_426614174000",
        "g23e4567-e89b-12d3-a456-426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
        "123e4567-e89b-12d3-a456-42661417400é", "123e45678e89b-12d3-a456-426614174000",
    ])
    func acceptsWhatFoundationAccepts(text: String) {
        #expect(ActivityServiceState.isCanonicalUUID(text) == (UUID(uuidString: text) != nil), "\(text)")
    }
}
