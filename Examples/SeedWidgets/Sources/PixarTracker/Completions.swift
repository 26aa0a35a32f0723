// Not in the article: what its code calls but never shows (FilmStore's reads and its
// persistence layer, PixarFilm's runtime and the init its samples use, the intent's init,
// LargeFilmView, the extension's @main bundle). Counted as changed lines by seed-lines.py.
import Foundation
import GlimpseKit

extension PixarFilm {
    init(title: String, year: Int, posterName: String) {
        self.init(id: title.lowercased(), title: title, year: year, posterName: posterName)
    }

    var runtime: Int { 100 }

    static let catalog = [
        PixarFilm(title: "Coco", year: 2017, posterName: "coco-poster"),
        PixarFilm(title: "Up", year: 2009, posterName: "up-poster"),
        PixarFilm(title: "WALL-E", year: 2008, posterName: "walle-poster"),
    ]
}

/// The films watched, as the app and the extension share them.
actor FilmPersistence {
    private var watched: Set<String> = []

    func save(_ film: PixarFilm, watched isWatched: Bool) {
        if isWatched { watched.insert(film.id) } else { watched.remove(film.id) }
    }

    func current() -> PixarFilm? { PixarFilm.catalog.first { !watched.contains($0.id) } }
}

let persistenceLayer = FilmPersistence()

extension FilmStore {
    func fetchCurrentFilm() async throws -> PixarFilm? { await persistenceLayer.current() }

    func watchProgress() -> Double { 0.42 }

    func markFilmWatched(id: String) async {
        guard let film = PixarFilm.catalog.first(where: { $0.id == id }) else { return }
        await markFilmWatched(film)
    }
}

extension MarkFilmWatchedIntent {
    init(filmID: String, filmTitle: String) {
        self.init()
        self.filmID = filmID
        self.filmTitle = filmTitle
    }
}

struct LargeFilmView: View {
    let entry: FilmEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            SmallFilmView(entry: entry)
            if let film = entry.film {
                Image(film.posterName).resizable().scaledToFill()
                ProgressView(value: entry.watchProgress).tint(.orange)
            }
        }
    }
}

@main
struct PixarTrackerWidgets: WidgetBundle {
    var body: some Widget {
        PixarFilmWidget()
        FilmPlaybackLiveActivity()
    }
}
