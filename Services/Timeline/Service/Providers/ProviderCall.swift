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
    /// What the engine asked of an app's provider.
    enum Asked: Sendable {
        case timeline(FetchRequest)
        case placeholder(PlaceholderRequest)

        var app: AppID {
            switch self {
            case .timeline(let request): request.app
            case .placeholder(let request): request.app
            }
        }
    }

    /// Makes the call `asked`; the answer to journal, or nil when there is none to keep (a
    /// placeholder the app could not give: the device draws its own).
    static func call(
        _ asked: Asked, endpoint: String?, clients: Connections, timeout: TimeInterval, now: Date, scale: Double
    ) async -> GlimpseTimelineV1.JournalRecord.Input? {
        switch asked {
        case .timeline(let request):
            return .providerAnswer(
                await timeline(request, endpoint: endpoint, clients: clients, timeout: timeout, now: now, scale: scale))
        case .placeholder(let request):
            return await placeholder(
                request, endpoint: endpoint, clients: clients, timeout: timeout, now: now, scale: scale
            ).map { .placeholderAnswer($0) }
        }
    }

    /// Calls the app's `WidgetProvider.Placeholder` (placeholder(in:)); nil when it fails
    /// (an app that implements none answers UNIMPLEMENTED, as the stubs do).
    static func placeholder(
        _ request: PlaceholderRequest, endpoint: String?, clients: Connections, timeout: TimeInterval, now: Date,
        scale: Double
    ) async -> GlimpseTimelineV1.PlaceholderAnswer? {
        guard let endpoint, let connection = clients.client(for: endpoint) else { return nil }
        var call = GlimpseAppV1.PlaceholderRequest()
        call.widget = GlimpseAppV1.WidgetRef(kind: request.kind, placementId: request.placement.rawValue)
        call.context = request.context.providerContext(of: request.app, scale: scale)
        let client = GlimpseAppV1.WidgetProvider.Client(wrapping: connection)
        guard
            let response = try? await client.placeholder(
                ClientRequest(message: call),
                options: options(timeout)),
            var entry = response.message.entry
        else { return nil }
        // A placeholder shows at once, whatever date the app gave it (apps write `Date()`, the
        // wall clock): it is dated the device's now, so a replayed day logs the same.
        entry.date = GoogleProtobuf.Timestamp(now)
        return GlimpseTimelineV1.PlaceholderAnswer(placementId: request.placement.rawValue, entry: entry)
    }

    /// Calls the app's `WidgetProvider.Snapshot` (getSnapshot(in:)) for a gallery preview.
    static func snapshot(
        app: AppID, kind: String, context: TimelineContext, endpoint: String?, clients: Connections,
        timeout: TimeInterval, now: Date, scale: Double
    ) async -> GlimpseTimelineV1.PreviewResponse {
        var answer = GlimpseTimelineV1.PreviewResponse()
        answer.displaySize = GlimpseWidgetV1.DisplaySize(context.displaySize)
        guard let endpoint, let connection = clients.client(for: endpoint) else {
            answer.result = .error(error(.noEndpoint, "the app names no provider endpoint for kind \(kind)"))
            return answer
        }
        var call = GlimpseAppV1.SnapshotRequest()
        call.widget = GlimpseAppV1.WidgetRef(kind: kind, placementId: 0)
        call.context = context.providerContext(of: app, scale: scale)
        let client = GlimpseAppV1.WidgetProvider.Client(wrapping: connection)
        do {
            let response = try await client.snapshot(
                ClientRequest(message: call),
                options: options(timeout))
            var entry = response.message.entry ?? GlimpseWidgetV1.TimelineEntry()
            if entry.date == nil { entry.date = GoogleProtobuf.Timestamp(now) }
            // The same limits as a timeline's entry: a preview the device would not draw is an error.
            do { _ = try TimelineEngine.TimelineEntry(entry, field: "entry") } catch {
                answer.result = .error(self.error(.invalidTimeline, "\(error.field): \(error.reason)"))
                return answer
            }
            answer.result = .entry(entry)
        } catch let rpc as RPCError {
            answer.result = .error(error(.callFailed(rpc.code), rpc.message))
        } catch {
            answer.result = .error(self.error(.callFailed(.unavailable), "\(error)"))
        }
        return answer
    }

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
                options: options(timeout))
            answer.outcome = .timeline(response.message.timeline ?? GlimpseWidgetV1.Timeline())
        } catch let rpc as RPCError {
            answer.outcome = .error(error(.callFailed(rpc.code), rpc.message))
        } catch {
            answer.outcome = .error(self.error(.callFailed(.unavailable), "\(error)"))
        }
        return answer
    }

    /// A provider call's options: the provider timeout as its own deadline (not the caller's).
    static func options(_ timeout: TimeInterval) -> CallOptions {
        CallOptions(timeout: .milliseconds(Int64(timeout * 1000)), inheritsDeadline: false)
    }

    static func error(_ failure: ProviderFailure, _ message: String) -> GlimpseTimelineV1.ProviderError {
        GlimpseTimelineV1.ProviderError(failure, message)
    }
}
