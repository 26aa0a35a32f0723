import GlimpseMessages
import GlimpseRPC
import RPCCore

/// Seed 000's MarkFilmWatchedIntent: `perform()` marks the film watched in FilmStore; the
/// tapped widget's reload (which the system always does) then shows the next film.
struct MarkFilmWatchedIntent: GlimpseAppV1.IntentHandler.Handler {
    static let type = "MarkFilmWatchedIntent"
    let store: FilmStore

    func perform(
        request: ServerRequest<GlimpseAppV1.PerformRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.PerformResponse> {
        let message = request.message
        guard message.intentType == Self.type else {
            throw RPCError(code: .notFound, message: "no intent \"\(message.intentType)\" (this app has \(Self.type))")
        }
        guard case .stringValue(let filmID)? = message.parameters["filmID"]?.kind else {
            return ServerResponse(message: .failed("MarkFilmWatchedIntent needs its filmID parameter"))
        }
        guard store.markWatched(id: filmID) else {
            return ServerResponse(message: .failed("no film \"\(filmID)\""))
        }
        return ServerResponse(message: GlimpseAppV1.PerformResponse(outcome: .succeeded(.init())))
    }
}

extension GlimpseAppV1.PerformResponse {
    static func failed(_ message: String) -> Self {
        Self(outcome: .failed(.init(message: message)))
    }
}
