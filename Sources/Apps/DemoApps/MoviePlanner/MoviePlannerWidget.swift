import Foundation
import GlimpseKit
import GlimpseMessages

/// Seed 001's MoviePlanner: a StaticConfiguration widget ("MoviePlannerwidget", as the
/// article spells its kind) that cycles through a local list of movies, one entry a minute
/// apart, `.atEnd` — then the system asks again and the cycle restarts.
struct MoviePlannerWidget: TimelineSource {
    static let kind = "MoviePlannerwidget"
    /// The article's spacing between entries (`1 * i` minutes).
    static let minutesBetweenMovies = 1

    struct Movie: Sendable, Hashable {
        let name: String
        let movieImageName: String

        static let empty = Movie(name: "", movieImageName: "")
    }

    /// MovieUpdater's list.
    static let movies: [Movie] = [
        Movie(name: "Avengers: Infinity War", movieImageName: "infinity"),
        Movie(name: "Avengers: End Game", movieImageName: "endgame"),
        Movie(name: "Guardians of the Galaxy Volume 3", movieImageName: "gog3"),
    ]

    var kinds: Set<String> { [Self.kind] }

    func placeholder(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) -> GlimpseWidgetV1.TimelineEntry {
        MoviePlannerWidgetEntryView.entry(date: now, movie: .empty)
    }

    func snapshot(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.TimelineEntry {
        MoviePlannerWidgetEntryView.entry(date: now, movie: .empty)
    }

    func timeline(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.Timeline {
        let entries = Self.movies.enumerated().map { index, movie in
            MoviePlannerWidgetEntryView.entry(
                date: now.adding(minutes: Self.minutesBetweenMovies * index), movie: movie)
        }
        return GlimpseWidgetV1.Timeline(entries: entries, policy: .atEnd)
    }
}

/// MoviePlannerWidgetEntryView: one layout for every size — the poster filling the widget
/// under a rounded mask, a gradient from clear to black at the bottom, the title over it.
enum MoviePlannerWidgetEntryView {
    static func entry(date: Date, movie: MoviePlannerWidget.Movie) -> GlimpseWidgetV1.TimelineEntry {
        GlimpseWidgetV1.TimelineEntry(date: date, view: body(movie).containerBackground(.color(.black)))
    }

    static func body(_ movie: MoviePlannerWidget.Movie) -> View {
        let gradient: [(Color, Double)] = [(.clear, 0), (.system(.black, opacity: 0.95), 0.6)]
        let poster: View =
            movie.movieImageName.isEmpty
            ? .shape(.roundedRectangle(cornerRadius: 10), fill: .system(.gray))
            : .image(movie.movieImageName, resizable: true, contentMode: .fill)
                .mask(.roundedRectangle(cornerRadius: 10))
        return .zstack([
            poster.frame(minWidth: 0, maxWidth: .infinity, minHeight: 0, maxHeight: .infinity),
            .vstack([
                .spacer(),
                .gradient(gradient, from: .top, to: .bottom).frame(height: 100),
            ]),
            .vstack(
                alignment: .leading,
                [
                    .spacer(),
                    .text(movie.name).padding(.all, 10).font(.headline).foregroundColor(.white),
                ]),
        ])
    }
}
