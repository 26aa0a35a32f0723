#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import GlimpseMessages
public import GlimpseVocabulary
import ProtoMapping
import ServiceKit
import RPCCore
public import TimelineEngine
import GlimpseRPC

/// One provider call as the engine asked for it, and its answer as the journal keeps it.
public enum ProviderCall {
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
        call.context = context(request.context, scale: scale)
        call.now = GoogleProtobuf.Timestamp(now)
        let client = GlimpseAppV1.WidgetProvider.Client(wrapping: connection)
        do {
            let response = try await client.timeline(
                ClientRequest(message: call), options: CallOptions(timeout: .milliseconds(Int64(timeout * 1000)), inheritsDeadline: false))
            answer.outcome = .timeline(response.message.timeline ?? GlimpseWidgetV1.Timeline())
        } catch let rpc as RPCError {
            answer.outcome = .error(error(.callFailed(rpc.code), rpc.message))
        } catch {
            answer.outcome = .error(self.error(.callFailed(.unavailable), "\(error)"))
        }
        return answer
    }

    /// The provider context glimpse-timeline sends for `context` (also what `glimpse verify`
    /// sends): the family's size, light, vibrant on the Lock Screen, full color elsewhere.
    public static func context(_ context: TimelineContext, scale: Double = DeviceScreen.default.scale) -> GlimpseAppV1.TimelineProviderContext {
        var wire = GlimpseAppV1.TimelineProviderContext()
        wire.family = context.family.wire
        wire.displaySize = GlimpseWidgetV1.DisplaySize(context.displaySize)
        wire.isPreview = context.isPreview
        wire.configuration = context.configuration.mapValues(\.wire)
        wire.renderingMode = context.family.isAccessory ? .vibrant : .fullColor
        wire.colorScheme = .light
        wire.displayScale = scale
        return wire
    }

    static func error(_ failure: ProviderFailure, _ message: String) -> GlimpseTimelineV1.ProviderError {
        GlimpseTimelineV1.ProviderError(failure, message)
    }
}
