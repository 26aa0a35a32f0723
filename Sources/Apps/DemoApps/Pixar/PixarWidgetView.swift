import Foundation
import GlimpseKit
import GlimpseMessages

/// FilmWidgetEntryView: a layout per family (seed 000's SmallFilmView, MediumFilmView with
/// the mark-watched Button, a large view, and FilmAccessoryView's gauge on the Lock Screen),
/// each with `.containerBackground(.fill.tertiary, for: .widget)`.
enum PixarWidgetView {
    static func entry(
        _ entry: PixarWidget.FilmEntry, family: GlimpseWidgetV1.WidgetFamily
    ) -> GlimpseWidgetV1.TimelineEntry {
        GlimpseWidgetV1.TimelineEntry(
            date: entry.date, view: body(entry, family: family).containerBackground(.fillTertiary),
            url: entry.film.map { filmURL($0.title) } ?? "pixartracker://")
    }

    static func filmURL(_ title: String) -> String {
        "pixartracker://film/" + (title.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? title)
    }

    static func body(_ entry: PixarWidget.FilmEntry, family: GlimpseWidgetV1.WidgetFamily) -> View {
        switch family {
        case .systemSmall: small(entry)
        case .systemMedium: medium(entry)
        case .accessoryCircular: circular(entry)
        case .accessoryRectangular: rectangular(entry)
        case .accessoryInline: inline(entry)
        default: large(entry)
        }
    }

    static func percent(_ progress: Double) -> Int { Int(progress * 100) }

    /// MarkFilmWatchedIntent(filmID:filmTitle:) with a green checkmark, `.buttonStyle(.plain)`.
    static func markWatched(_ film: PixarFilm, label: View) -> View {
        .button(
            intent: .init(MarkFilmWatchedIntent.type, ["filmID": film.id, "filmTitle": film.title]), style: .plain,
            label)
    }

    static func small(_ entry: PixarWidget.FilmEntry) -> View {
        guard let film = entry.film else {
            return .vstack(alignment: .leading, spacing: 4, [noFilm]).padding()
        }
        return .vstack(
            alignment: .leading, spacing: 4,
            [
                .text(film.title).font(.headline).lineLimit(2),
                .text("\(percent(entry.watchProgress))% watched").font(.caption).foregroundStyle(.secondary),
            ]
        ).padding()
    }

    static func medium(_ entry: PixarWidget.FilmEntry) -> View {
        guard let film = entry.film else { return .hstack([noFilm]).padding() }
        return .hstack([
            .vstack(
                alignment: .leading,
                [
                    .text(film.title).font(.headline),
                    .text("\(percent(entry.watchProgress))% complete").font(.caption).foregroundStyle(.secondary),
                ]),
            .spacer(),
            markWatched(film, label: .symbol("checkmark.circle.fill").font(.title2).foregroundStyle(.system(.green)))
                .id("markWatched"),
        ]).padding()
    }

    static func large(_ entry: PixarWidget.FilmEntry) -> View {
        guard let film = entry.film else { return .vstack([noFilm]).padding() }
        return .vstack(
            alignment: .leading, spacing: 8,
            [
                // minWidth/minHeight 0: the filled poster takes only the height the texts leave
                // (a fill image alone reports more than it is offered and would push them out).
                .image(film.posterName, resizable: true, contentMode: .fill)
                    .frame(minWidth: 0, maxWidth: .infinity, minHeight: 0, maxHeight: .infinity)
                    .clipShape(.roundedRectangle(cornerRadius: 12)),
                .text(film.title).font(.title2).bold().lineLimit(1),
                .text(String(film.year)).font(.caption).foregroundStyle(.secondary),
                .progress(value: entry.watchProgress).tint(.system(.orange)),
                .hstack([
                    .text("\(percent(entry.watchProgress))% watched").font(.caption).foregroundStyle(.secondary),
                    .spacer(),
                    markWatched(
                        film,
                        label: .label("Watched", systemImage: "checkmark.circle.fill")
                            .font(.caption).foregroundStyle(.system(.green))
                    ).id("markWatched"),
                ]),
            ]
        ).padding()
    }

    /// accessoryCircular: one value, no text — the watch progress as a capacity gauge.
    static func circular(_ entry: PixarWidget.FilmEntry) -> View {
        guard entry.film != nil else { return .zstack([.accessoryWidgetBackground, .symbol("film")]) }
        return .zstack([
            .accessoryWidgetBackground,
            .gauge(value: entry.watchProgress, style: .accessoryCircularCapacity, label: .symbol("film")),
        ])
    }

    static func rectangular(_ entry: PixarWidget.FilmEntry) -> View {
        guard let film = entry.film else { return .vstack(alignment: .leading, [noFilm]) }
        return .vstack(
            alignment: .leading, spacing: 2,
            [
                .label(film.title, systemImage: "film").font(.headline).widgetAccentable().lineLimit(1),
                .text("\(percent(entry.watchProgress))% watched").font(.caption),
                .gauge(value: entry.watchProgress, style: .accessoryLinearCapacity),
            ]
        ).frame(maxWidth: .infinity, alignment: .leading)
    }

    static func inline(_ entry: PixarWidget.FilmEntry) -> View {
        guard let film = entry.film else { return .label("No film", systemImage: "film") }
        return .label("\(film.title) · \(percent(entry.watchProgress))%", systemImage: "film")
    }

    static let noFilm: View = .text("No film selected").font(.caption).foregroundStyle(.secondary)
}
