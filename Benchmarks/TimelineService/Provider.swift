import Foundation
import GlimpseMessages
import GlimpseRPC
import RPCCore
import Synchronization

/// The benchmark's app provider: five entries 15 minutes apart from the device's `now`,
/// `.atEnd` (the Pixar seed's shape), answered at once. It notes when it answered each
/// call, by placement and first entry date, so delivery latency can be matched.
final class BenchProvider: GlimpseAppV1.WidgetProvider.Handler, Sendable {
    struct Key: Hashable { var placement: UInt64; var date: Int64 }
    let answered = Mutex<[Key: ContinuousClock.Instant]>([:])
    let calls = Atomic<Int>(0)

    func placeholder(
        request: ServerRequest<GlimpseAppV1.PlaceholderRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.PlaceholderResponse> {
        ServerResponse(message: GlimpseAppV1.PlaceholderResponse())
    }

    func snapshot(
        request: ServerRequest<GlimpseAppV1.SnapshotRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.SnapshotResponse> {
        ServerResponse(message: GlimpseAppV1.SnapshotResponse())
    }

    func timeline(
        request: ServerRequest<GlimpseAppV1.TimelineRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.TimelineResponse> {
        calls.add(1, ordering: .relaxed)
        let now = request.message.now ?? GoogleProtobuf.Timestamp()
        var timeline = GlimpseWidgetV1.Timeline()
        for minute in stride(from: 0, through: 60, by: 15) {
            var date = now
            date.seconds += Int64(minute * 60)
            timeline.entries.append(
                GlimpseWidgetV1.TimelineEntry(
                    date: date,
                    view: GlimpseWidgetV1.View(kind: .text(GlimpseWidgetV1.Text(content: "Coco 42% +\(minute)")))))
        }
        timeline.reloadPolicy = .atEnd
        let key = Key(placement: request.message.widget?.placementId ?? 0, date: now.seconds)
        answered.withLock { $0[key] = ContinuousClock.now }
        return ServerResponse(message: GlimpseAppV1.TimelineResponse(timeline: timeline))
    }
}
