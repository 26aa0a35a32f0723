import Foundation
import Synchronization

/// Seed 000's model: a Pixar film and the store the widget extension and the app share.
struct PixarFilm: Codable, Sendable, Hashable, Identifiable {
    let id: String
    let title: String
    let year: Int
    let posterName: String
    let runtime: Int  // minutes

    static let catalog: [PixarFilm] = [
        PixarFilm(id: "coco", title: "Coco", year: 2017, posterName: "coco-poster", runtime: 105),
        PixarFilm(id: "up", title: "Up", year: 2009, posterName: "up-poster", runtime: 96),
        PixarFilm(id: "walle", title: "WALL-E", year: 2008, posterName: "walle-poster", runtime: 98),
        PixarFilm(id: "toy-story", title: "Toy Story", year: 1995, posterName: "toy-story-poster", runtime: 81),
        PixarFilm(id: "inside-out", title: "Inside Out", year: 2015, posterName: "inside-out-poster", runtime: 95),
    ]
}

/// FilmStore.shared: the film being watched and how far. Marking it watched moves on to
/// the next unwatched film of the catalog; when none is left, no film is selected.
final class FilmStore: Sendable {
    /// The app's store, as the intents reach it (the demo binds each app's own).
    @TaskLocal static var shared = FilmStore()

    struct Now: Sendable, Hashable {
        var film: PixarFilm?
        var watchProgress: Double  // 0.0–1.0
    }

    private struct State {
        var current: Int?
        var progress: Double
        var watched: Set<String> = []
    }

    private let state: Mutex<State>
    private let films: [PixarFilm]

    /// The article's sample: Coco, 42 % watched.
    init(films: [PixarFilm] = PixarFilm.catalog, progress: Double = 0.42) {
        self.films = films
        self.state = Mutex(State(current: films.isEmpty ? nil : 0, progress: progress))
    }

    func current() -> Now {
        state.withLock { state in Now(film: state.current.map { films[$0] }, watchProgress: state.progress) }
    }

    /// markFilmWatched(id:). Returns false for a film the catalog does not have.
    @discardableResult
    func markWatched(id: String) -> Bool {
        guard films.contains(where: { $0.id == id }) else { return false }
        state.withLock { state in
            state.watched.insert(id)
            guard let current = state.current, films[current].id == id else { return }
            state.current = films.indices.first { !state.watched.contains(films[$0].id) }
            state.progress = 0
        }
        return true
    }
}
