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
/// under a rounded mask, a gradient from clear to black at the bottom, the title over it;
/// GlimpseKit's SwiftUI-shaped views as seed 001 writes them (its two frames are one here).
struct MoviePlannerWidgetEntryView: GlimpseKit.View {
    let movie: MoviePlannerWidget.Movie

    static func entry(date: Date, movie: MoviePlannerWidget.Movie) -> GlimpseWidgetV1.TimelineEntry {
        GlimpseWidgetV1.TimelineEntry(
            date: date,
            view: MoviePlannerWidgetEntryView(movie: movie).containerBackground(.black, for: .widget).drawn())
    }

    var gradient: Gradient {
        Gradient(stops: [
            Gradient.Stop(color: .clear, location: 0),
            Gradient.Stop(color: GlimpseKit.Color.black.opacity(0.95), location: 0.6),
        ])
    }

    var body: some GlimpseKit.View {
        ZStack {
            poster.frame(minWidth: 0, maxWidth: .infinity, minHeight: 0, maxHeight: .infinity)
            VStack {
                Spacer()
                LinearGradient(gradient: gradient, startPoint: .top, endPoint: .bottom).frame(height: 100)
            }
            VStack(alignment: .leading) {
                Spacer()
                Text(movie.name).padding(.all, 10).font(.headline).foregroundColor(.white)
            }
        }
    }

    /// The movie's poster; the placeholder's empty movie shows a grey card.
    @ViewBuilder var poster: some GlimpseKit.View {
        if movie.movieImageName.isEmpty {
            RoundedRectangle(cornerRadius: 10).fill(.gray)
        } else {
            Image(movie.movieImageName).resizable().aspectRatio(contentMode: .fill)
                .mask(RoundedRectangle(cornerRadius: 10))
        }
    }
}
