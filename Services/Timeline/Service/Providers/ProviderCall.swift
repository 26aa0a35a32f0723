#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
import ServiceKit
import RPCCore
import TimelineEngine
import TimelineMapping
import GlimpseRPC

/// One provider call as the engine asked for it, and its answer as the journal keeps it.
package enum ProviderCall {
    /// Calls the app's `WidgetProvider.Timeline` for `request` with the provider timeout
    /// as its deadline; every failure becomes a `ProviderError` (the last timeline stays).
    static func timeline(
        _ request: FetchRequest, endpoint: String?, clients: Connections, timeout: TimeInterval, now: Date,
        scale: Double = DeviceScreen.default.scale
    ) async -> GlimpseTimelineV1.ProviderAnswer {
        var answer = GlimpseTimelineV1.ProviderAnswer()
        answer.fetchId = request.id.rawValue
        guard let endpoint, let connection = clients.client(for: endpoint) else {
            answer.outcome = .error(error(.noEndpoint, "the app names no provider endpoint for kind \(request.kind)"))
            return answer
        }
        var call = GlimpseAppV1.TimelineRequest()
        call.widget = GlimpseAppV1.WidgetRef(kind: request.kind, placementId: request.placement.rawValue)
        call.context = request.context.providerContext(of: request.app, scale: scale)
        call.now = GoogleProtobuf.Timestamp(now)
        let client = GlimpseAppV1.WidgetProvider.Client(wrapping: connection)
        do {
            let response = try await client.timeline(
                ClientRequest(message: call),
                options: CallOptions(timeout: .milliseconds(Int64(timeout * 1000)), inheritsDeadline: false))
            answer.outcome = .timeline(response.message.timeline ?? GlimpseWidgetV1.Timeline())
        } catch let rpc as RPCError {
            answer.outcome = .error(error(.callFailed(rpc.code), rpc.message))
        } catch {
            answer.outcome = .error(self.error(.callFailed(.unavailable), "\(error)"))
        }
        return answer
    }

    static func error(_ failure: ProviderFailure, _ message: String) -> GlimpseTimelineV1.ProviderError {
        GlimpseTimelineV1.ProviderError(failure, message)
    }
}
