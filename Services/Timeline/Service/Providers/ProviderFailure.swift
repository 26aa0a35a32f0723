package import GlimpseMessages
package import RPCCore

/// Why a provider call gave no timeline: what `ProviderError.failure` and `grpc_status` say,
/// and the text of the deprecated `code` made from them in this one place.
package enum ProviderFailure: Hashable, Sendable {
    /// The call ended with a status: the provider down (UNAVAILABLE), late (DEADLINE_EXCEEDED)
    /// or refusing.
    case callFailed(StatusCode)
    /// The answer is no timeline the device takes (a limit; the message says which).
    case invalidTimeline
    /// The app names no provider endpoint for the kind.
    case noEndpoint
}

extension GlimpseTimelineV1.ProviderError {
    package init(_ failure: ProviderFailure, _ message: String) {
        self.init()
        self.message = message
        switch failure {
        case .callFailed(let status):
            self.failure = .callFailed
            grpcStatus = Int32(status.rawValue)
            code = status.description
        case .invalidTimeline:
            self.failure = .invalidTimeline
            code = "INVALID_TIMELINE"
        case .noEndpoint:
            self.failure = .noEndpoint
            code = StatusCode.unavailable.description
        }
    }
}
