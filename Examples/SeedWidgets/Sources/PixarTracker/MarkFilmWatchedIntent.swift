#if canImport(WidgetKit)
import AppIntents
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

@available(iOS 17.0, *)
struct MarkFilmWatchedIntent: AppIntent {
    static var title: LocalizedStringResource = "Mark Film as Watched"

    // Parameters are encoded into the button and decoded when the intent runs
    @Parameter(title: "Film ID")
    var filmID: String

    @Parameter(title: "Film Title")
    var filmTitle: String

    func perform() async throws -> some IntentResult {
        // This runs in the widget extension process, not your main app
        await FilmStore.shared.markFilmWatched(id: filmID)

        // Reload the widget after the action completes
        WidgetCenter.shared.reloadTimelines(ofKind: "PixarFilmWidget")

        return .result()
    }
}


@available(iOS 17.0, *)
struct MediumFilmView: View {
    let entry: FilmEntry

    var body: some View {
        HStack {
            if let film = entry.film {
                VStack(alignment: .leading) {
                    Text(film.title).font(.headline)
                    Text("\(Int(entry.watchProgress * 100))% complete")
                        .font(.caption)
                        .foregroundStyle(.secondary)
                }

                Spacer()

                // Button runs the intent — no app launch required
                Button(
                    intent: MarkFilmWatchedIntent(
                        filmID: film.id,
                        filmTitle: film.title
                    )
                ) {
                    Image(systemName: "checkmark.circle.fill")
                        .font(.title2)
                        .foregroundStyle(.green)
                }
                .buttonStyle(.plain)
            }
        }
        .padding()
    }
}
