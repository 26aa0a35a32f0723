import GlimpseMessages
import RPCCore
import Testing
import TimelineService

/// A provider's failure is an enum and a gRPC status on the wire; the text `code` is made
/// from them in one place.
@Suite("Provider failures: typed, with the text kept for its readers")
struct ProviderFailureTests {
    @Test("a failed call carries its gRPC status; an invalid timeline and a missing endpoint their own failure")
    func mapping() {
        let late = GlimpseTimelineV1.ProviderError(.callFailed(.deadlineExceeded), "no answer within 30 s")
        #expect(late.failure == .callFailed && late.grpcStatus == 4 && late.code == "DEADLINE_EXCEEDED")
        #expect(late.message == "no answer within 30 s")
        let invalid = GlimpseTimelineV1.ProviderError(
            .invalidTimeline, "the timeline has 401 entries; the limit is 400")
        #expect(invalid.failure == .invalidTimeline && invalid.grpcStatus == 0 && invalid.code == "INVALID_TIMELINE")
        let none = GlimpseTimelineV1.ProviderError(.noEndpoint, "the app names no provider endpoint for kind W")
        #expect(none.failure == .noEndpoint && none.code == "UNAVAILABLE")
    }
}
