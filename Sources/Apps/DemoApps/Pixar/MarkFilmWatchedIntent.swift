import GlimpseKit
import GlimpseMessages
import GlimpseRPC
import RPCCore

/// Seed 000's MarkFilmWatchedIntent: `perform()` marks the film watched in FilmStore and
/// calls `WidgetCenter.shared.reloadTimelines(ofKind: "PixarFilmWidget")` — the tap's reload,
/// so every Pixar widget, not only the tapped one, shows the next film at once.
struct MarkFilmWatchedIntent: AppIntent {
    static let title: LocalizedStringResource = "Mark Film as Watched"

    @Parameter(title: "Film ID") var filmID: String
    @Parameter(title: "Film Title") var filmTitle: String

    init() {}

    init(filmID: String, filmTitle: String) {
        self.filmID = filmID
        self.filmTitle = filmTitle
    }

    func perform() async throws -> some IntentResult {
        guard FilmStore.shared.markWatched(id: filmID) else { throw PixarError("no film \"\(filmID)\"") }
        WidgetCenter.shared.reloadTimelines(ofKind: PixarWidget.kind)
        return .result()
    }
}

struct PixarError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The Pixar app's IntentHandler: GlimpseKit's, performing its two intents with this app's
/// FilmStore as `FilmStore.shared`.
struct PixarIntentHandler: GlimpseAppV1.IntentHandler.Handler {
    let store: FilmStore
    let intents = IntentHandlerService(intents: [MarkFilmWatchedIntent.self, TogglePlaybackIntent.self])

    func perform(
        request: ServerRequest<GlimpseAppV1.PerformRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.PerformResponse> {
        try await FilmStore.$shared.withValue(store) { try await intents.perform(request: request, context: context) }
    }
}
