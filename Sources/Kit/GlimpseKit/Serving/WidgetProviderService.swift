import Foundation
package import GlimpseMessages
import GlimpseRPC
package import RPCCore

/// `glimpse.app.v1.WidgetProvider` over a `TimelineSource`: what glimpse-timeline calls
/// for the app's kinds. A kind the app does not have is NOT_FOUND.
package struct WidgetProviderService<Source: TimelineSource>: GlimpseAppV1.WidgetProvider.Handler {
    package let source: Source

    package init(source: Source) { self.source = source }

    private func checked(_ widget: GlimpseAppV1.WidgetRef?) throws -> String {
        let kind = widget?.kind ?? ""
        guard source.kinds.contains(kind) else {
            throw RPCError(
                code: .notFound,
                message: "no widget kind \"\(kind)\" (this app has \(source.kinds.sorted().joined(separator: ", ")))")
        }
        return kind
    }

    package func placeholder(
        request: ServerRequest<GlimpseAppV1.PlaceholderRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.PlaceholderResponse> {
        let kind = try checked(request.message.widget)
        let entry = source.placeholder(kind: kind, in: request.message.context ?? .init(), now: Date())
        return ServerResponse(message: GlimpseAppV1.PlaceholderResponse(entry: entry))
    }

    package func snapshot(
        request: ServerRequest<GlimpseAppV1.SnapshotRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.SnapshotResponse> {
        let kind = try checked(request.message.widget)
        let entry = await source.snapshot(kind: kind, in: request.message.context ?? .init(), now: Date())
        return ServerResponse(message: GlimpseAppV1.SnapshotResponse(entry: entry))
    }

    package func timeline(
        request: ServerRequest<GlimpseAppV1.TimelineRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.TimelineResponse> {
        let kind = try checked(request.message.widget)
        let timeline = await source.timeline(
            kind: kind, in: request.message.context ?? .init(), now: request.message.now.dateOrNow)
        return ServerResponse(message: GlimpseAppV1.TimelineResponse(timeline: timeline))
    }
}
