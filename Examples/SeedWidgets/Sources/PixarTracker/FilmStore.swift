#if canImport(WidgetKit)
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

final class FilmStore {
    static let shared = FilmStore()

    func markFilmWatched(_ film: PixarFilm) async {
        // 1. Persist the change
        await persistenceLayer.save(film, watched: true)

        // 2. Immediately reload widgets — the system calls getTimeline again
        WidgetCenter.shared.reloadTimelines(ofKind: "PixarFilmWidget")

        // Or reload all widget timelines from this app:
        // WidgetCenter.shared.reloadAllTimelines()
    }
}
