import GlimpseKit
import GlimpseMessages
import GlimpseRPC
import RPCCore

/// The Pixar app's IntentHandler: its two intents by type.
struct PixarIntentHandler: GlimpseAppV1.IntentHandler.Handler {
    let markWatched: MarkFilmWatchedIntent
    let togglePlayback: TogglePlaybackIntent

    func perform(
        request: ServerRequest<GlimpseAppV1.PerformRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.PerformResponse> {
        let message = request.message
        switch message.intentType {
        case MarkFilmWatchedIntent.type: return ServerResponse(message: markWatched.perform(message))
        case TogglePlaybackIntent.type: return ServerResponse(message: await togglePlayback.perform(message))
        default:
            throw RPCError(
                code: .notFound,
                message:
                    "no intent \"\(message.intentType)\" (this app has \(MarkFilmWatchedIntent.type), \(TogglePlaybackIntent.type))"
            )
        }
    }
}

/// Seed 000's MarkFilmWatchedIntent: `perform()` marks the film watched in FilmStore and
/// calls `WidgetCenter.shared.reloadTimelines(ofKind: "PixarFilmWidget")`, said in its answer
/// (`reloads`), so every Pixar widget — not only the tapped one — shows the next film at once.
struct MarkFilmWatchedIntent {
    static let type = "MarkFilmWatchedIntent"
    let store: FilmStore

    func perform(_ message: GlimpseAppV1.PerformRequest) -> GlimpseAppV1.PerformResponse {
        guard case .stringValue(let filmID)? = message.parameters["filmID"]?.kind else {
            return .failed("MarkFilmWatchedIntent needs its filmID parameter")
        }
        guard store.markWatched(id: filmID) else {
            return .failed("no film \"\(filmID)\"")
        }
        var response = GlimpseAppV1.PerformResponse(outcome: .succeeded(.init()))
        response.reloads = GlimpseAppV1.PerformResponse.Reloads(kinds: [PixarWidget.kind])
        return response
    }
}

extension GlimpseAppV1.PerformResponse {
    static func failed(_ message: String) -> Self {
        Self(outcome: .failed(.init(message: message)))
    }
}
