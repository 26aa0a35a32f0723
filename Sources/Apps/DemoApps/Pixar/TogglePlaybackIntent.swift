#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseKit
import GlimpseMessages
import GlimpseRPC
import RPCCore

/// The play/pause button of the playback Live Activity: a `LiveActivityIntent` whose
/// `perform()` runs in the app and updates the activity, as FilmPlaybackController's
/// `activity.update(...)` would (seed 000 draws the play/pause symbol; the button around it
/// is Glimpse's demo of an interactive Live Activity, spec §3).
struct TogglePlaybackIntent {
    static let type = "TogglePlaybackIntent"
    let gateway: GatewayLink?

    /// The button's invocation: the state the tap asks for.
    static func invocation(playing: Bool) -> GlimpseWidgetV1.IntentInvocation {
        GlimpseWidgetV1.IntentInvocation(intentType: type, parameters: ["isPlaying": .init(kind: .boolValue(playing))])
    }

    func perform(_ request: GlimpseAppV1.PerformRequest) async -> GlimpseAppV1.PerformResponse {
        guard !request.activityId.isEmpty else {
            return .failed("\(Self.type) runs from the playback Live Activity (no activity_id)")
        }
        guard case .boolValue(let playing)? = request.parameters["isPlaying"]?.kind else {
            return .failed("\(Self.type) needs its isPlaying parameter")
        }
        guard let gateway else { return .failed("\(Self.type): the app has no gateway to update its activity through") }
        let activityKit = GlimpseGatewayV1.ActivityKit.Client(wrapping: gateway.client)
        let options = CallOptions(timeout: .seconds(5))
        do {
            let changed = try await gateway.withToken { metadata in
                let list = try await activityKit.list(
                    ClientRequest(message: GlimpseActivityV1.ListActivitiesRequest(), metadata: metadata),
                    options: options
                ).message
                guard let activity = list.activities.first(where: { $0.activityId == request.activityId }),
                    var content = activity.content
                else {
                    throw RPCError(code: .notFound, message: "no activity \(request.activityId)")
                }
                var state = try JSONDecoder().decode(
                    FilmPlaybackActivity.ContentState.self, from: Data(content.stateJson.utf8))
                state.isPlaying = playing
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                content.stateJson = String(decoding: try encoder.encode(state), as: UTF8.self)
                let update = GlimpseActivityV1.UpdateActivityRequest(activityId: request.activityId, content: content)
                return try await activityKit.update(
                    ClientRequest(message: update, metadata: metadata), options: options
                ).message
            }
            guard changed != nil else { return .failed("\(Self.type): the app has no token yet") }
            return GlimpseAppV1.PerformResponse(outcome: .succeeded(.init()))
        } catch let error as RPCError {
            return .failed("\(Self.type): \(error.code): \(error.message)")
        } catch {
            return .failed("\(Self.type): \(error)")
        }
    }
}
