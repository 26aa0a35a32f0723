import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

/// Seed 001, MoviePlanner: three movies, entries one minute apart, `.atEnd`:
///
///     nextUpdateDate = Calendar.current.date(byAdding: .minute, value: 1 * i, to: Date())!
///     let timeline = Timeline(entries: entries, policy: .atEnd)
///
/// and the author's note: "there seems to be a delay when the last date passes in the
/// timeline and the reload" — here, the 5-minute minimum spacing.
@Suite("Seed 001: MoviePlanner")
struct MoviePlannerSeedTests {
    static let movies = ["Avengers: Infinity War", "Avengers: End Game", "Guardians of the Galaxy Volume 3"]

    static func planner() throws -> Harness {
        let h = Harness()
        let app: AppID = "com.example.MoviePlanner"
        // The seed's configuration declares no `.supportedFamilies(...)`: WidgetKit's default, all.
        try h.scheduler.install(
            app: app,
            kinds: [
                WidgetKind(
                    kind: "MoviePlannerwidget", displayName: "My Widget", description: "This is an example widget.",
                    supportedFamilies: [])
            ])
        h.provider = { _, now in
            let entries = movies.enumerated().map { i, movie in
                TimelineEntry(date: now.addingTimeInterval(Double(i) * 60), content: Array(movie.utf8))
            }
            return .timeline(Timeline(entries: entries, policy: .atEnd))
        }
        try h.run { try $0.place(Placement(id: 1, app: app, kind: "MoviePlannerwidget", family: .systemSmall)) }
        return h
    }

    @Test("the movies cycle one a minute; the .atEnd reload waits for the 5-minute spacing, then they cycle again")
    func cyclesMovies() throws {
        let h = try Self.planner()
        try h.advance(minutes: 12)
        let changes = h.shown(1).dropFirst()  // after the placeholder
        #expect(changes.map(\.minute) == [0, 1, 2, 5, 6, 7, 10, 11, 12])
        #expect(
            changes.map { String(decoding: $0.content ?? [], as: UTF8.self) }
                == Array(repeating: Self.movies, count: 3).flatMap { $0 })
        #expect(h.fetchMinutes(of: 1) == [0, 5, 10])
        let second = try #require(h.fetches(of: 1).dropFirst().first?.request)
        #expect(second.wantedAt == h.date(minutes: 2))  // the last entry's date
        #expect(second.dueAt == h.date(minutes: 5))
    }

    @Test("no supportedFamilies means every family, as WidgetKit: the widget goes on the Lock Screen too")
    func allFamiliesByDefault() throws {
        let h = try Self.planner()
        let app: AppID = "com.example.MoviePlanner"
        #expect(h.scheduler.kinds(of: app).first?.supportedFamilies == Set(WidgetFamily.allCases))
        try h.run {
            try $0.place(Placement(id: 2, app: app, kind: "MoviePlannerwidget", family: .accessoryRectangular))
        }
        try h.run { try $0.place(Placement(id: 3, app: app, kind: "MoviePlannerwidget", family: .systemLarge)) }
        try h.settle()
        #expect(h.scheduler.currentEntry(of: 2)?.content == Array(Self.movies[0].utf8))
    }
}
