import Foundation
import GlimpseKit
import GlimpseMessages

/// Seed 000's `PixarFilmWidget` (StaticConfiguration, FilmTimelineProvider): entries for
/// the next hour in 15-minute increments, `.atEnd`. Each entry projects the watch progress
/// forward by the minutes since now (the film keeps playing), capped at the end.
struct PixarWidget: TimelineSource {
    static let kind = "PixarFilmWidget"
    static let minuteOffsets = Array(stride(from: 0, through: 60, by: 15))

    let store: FilmStore
    var kinds: Set<String> { [Self.kind] }

    struct FilmEntry: Sendable, Hashable {
        var date: Date
        var film: PixarFilm?
        var watchProgress: Double

        static func placeholder(_ date: Date) -> FilmEntry {
            FilmEntry(date: date, film: PixarFilm.catalog[0], watchProgress: 0.42)
        }
    }

    func placeholder(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) -> GlimpseWidgetV1.TimelineEntry {
        FilmWidgetEntryView.entry(.placeholder(now), family: context.family)
    }

    func snapshot(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.TimelineEntry {
        let current = store.current()
        return FilmWidgetEntryView.entry(
            FilmEntry(date: now, film: current.film, watchProgress: current.watchProgress), family: context.family)
    }

    func timeline(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.Timeline {
        let entries = filmEntries(now: now).map { FilmWidgetEntryView.entry($0, family: context.family) }
        return GlimpseWidgetV1.Timeline(entries: entries, policy: .atEnd)
    }

    func filmEntries(now: Date) -> [FilmEntry] {
        let current = store.current()
        return Self.minuteOffsets.map { minutes in
            let played = current.film.map { Double(minutes) / Double($0.runtime) } ?? 0
            return FilmEntry(
                date: now.adding(minutes: minutes), film: current.film,
                watchProgress: min(1, current.watchProgress + played))
        }
    }
}
