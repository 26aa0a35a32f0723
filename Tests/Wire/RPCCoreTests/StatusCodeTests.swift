import RPCCore
import Testing

@Suite("Status codes")
struct StatusCodeTests {
    @Test(arguments: StatusCode.allCases)
    func wireValueRoundTrips(_ code: StatusCode) {
        #expect(StatusCode(wireValue: code.rawValue) == code)
    }

    @Test(arguments: [-1, 17, 99, 1000])
    func unknownWireValuesAreUnknown(_ value: Int) {
        #expect(StatusCode(wireValue: value) == .unknown)
    }

    @Test func namesFollowTheStatusCodeDocument() {
        #expect(StatusCode.deadlineExceeded.description == "DEADLINE_EXCEEDED")
        #expect(StatusCode.resourceExhausted.description == "RESOURCE_EXHAUSTED")
        #expect(StatusCode.allCases.count == 17)
    }
}
