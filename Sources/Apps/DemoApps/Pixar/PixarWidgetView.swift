import Foundation
import GlimpseKit
import GlimpseMessages

/// Seed 000's FilmWidgetEntryView: a layout per family (SmallFilmView, MediumFilmView with
/// the mark-watched Button, a large view, and FilmAccessoryView's gauge on the Lock Screen),
/// under `.containerBackground(.fill.tertiary, for: .widget)`.
struct FilmWidgetEntryView: View {
    @Environment(\.widgetFamily) var family
    let entry: PixarWidget.FilmEntry

    /// The entry on the wire, drawn for `family`.
    static func entry(
        _ entry: PixarWidget.FilmEntry, family: GlimpseWidgetV1.WidgetFamily
    ) -> GlimpseWidgetV1.TimelineEntry {
        var environment = EnvironmentValues()
        environment.widgetFamily = WidgetFamily(family) ?? .systemLarge
        return GlimpseWidgetV1.TimelineEntry(
            date: entry.date, view: FilmWidgetEntryView(entry: entry).drawn(in: environment),
            url: entry.film.map { filmURL($0.title) } ?? "pixartracker://")
    }

    static func filmURL(_ title: String) -> String {
        "pixartracker://film/" + (title.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? title)
    }

    var body: some View {
        Group {
            switch family {
            case .systemSmall: SmallFilmView(entry: entry)
            case .systemMedium: MediumFilmView(entry: entry)
            case .accessoryCircular: FilmAccessoryView(entry: entry)
            case .accessoryRectangular: RectangularFilmView(entry: entry)
            case .accessoryInline: InlineFilmView(entry: entry)
            default: LargeFilmView(entry: entry)
            }
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

extension PixarWidget.FilmEntry {
    var percent: Int { Int(watchProgress * 100) }
}

/// "No film selected", in the caption.
struct NoFilmView: View {
    var body: some View {
        Text("No film selected").font(.caption).foregroundStyle(.secondary)
    }
}

struct SmallFilmView: View {
    let entry: PixarWidget.FilmEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            if let film = entry.film {
                Text(film.title).font(.headline).lineLimit(2)
                Text("\(entry.percent)% watched").font(.caption).foregroundStyle(.secondary)
            } else {
                NoFilmView()
            }
        }
        .padding()
    }
}

struct MediumFilmView: View {
    let entry: PixarWidget.FilmEntry

    var body: some View {
        HStack {
            if let film = entry.film {
                VStack(alignment: .leading) {
                    Text(film.title).font(.headline)
                    Text("\(entry.percent)% complete").font(.caption).foregroundStyle(.secondary)
                }
                Spacer()
                Button(intent: MarkFilmWatchedIntent(filmID: film.id, filmTitle: film.title)) {
                    Image(systemName: "checkmark.circle.fill").font(.title2).foregroundStyle(.green)
                }
                .buttonStyle(.plain)
                .id("markWatched")
            } else {
                NoFilmView()
            }
        }
        .padding()
    }
}

struct LargeFilmView: View {
    let entry: PixarWidget.FilmEntry

    var body: some View {
        if let film = entry.film {
            VStack(alignment: .leading, spacing: 8) {
                // minWidth/minHeight 0: the filled poster takes only the height the texts leave
                // (a fill image alone reports more than it is offered and would push them out).
                Image(film.posterName).resizable().aspectRatio(contentMode: .fill)
                    .frame(minWidth: 0, maxWidth: .infinity, minHeight: 0, maxHeight: .infinity)
                    .clipShape(RoundedRectangle(cornerRadius: 12))
                Text(film.title).font(.title2).bold().lineLimit(1)
                Text(String(film.year)).font(.caption).foregroundStyle(.secondary)
                ProgressView(value: entry.watchProgress).tint(.orange)
                HStack {
                    Text("\(entry.percent)% watched").font(.caption).foregroundStyle(.secondary)
                    Spacer()
                    Button(intent: MarkFilmWatchedIntent(filmID: film.id, filmTitle: film.title)) {
                        Label("Watched", systemImage: "checkmark.circle.fill").font(.caption).foregroundStyle(.green)
                    }
                    .buttonStyle(.plain)
                    .id("markWatched")
                }
            }
            .padding()
        } else {
            VStack { NoFilmView() }.padding()
        }
    }
}

/// accessoryCircular: one value, no text — the watch progress as a capacity gauge.
struct FilmAccessoryView: View {
    let entry: PixarWidget.FilmEntry

    var body: some View {
        ZStack {
            AccessoryWidgetBackground()
            if entry.film != nil {
                Gauge(value: entry.watchProgress) { Image(systemName: "film") }
                    .gaugeStyle(.accessoryCircularCapacity)
            } else {
                Image(systemName: "film")
            }
        }
    }
}

struct RectangularFilmView: View {
    let entry: PixarWidget.FilmEntry

    var body: some View {
        if let film = entry.film {
            VStack(alignment: .leading, spacing: 2) {
                Label(film.title, systemImage: "film").font(.headline).widgetAccentable().lineLimit(1)
                Text("\(entry.percent)% watched").font(.caption)
                Gauge(value: entry.watchProgress) { EmptyView() }.gaugeStyle(.accessoryLinearCapacity)
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        } else {
            VStack(alignment: .leading) { NoFilmView() }
        }
    }
}

struct InlineFilmView: View {
    let entry: PixarWidget.FilmEntry

    var body: some View {
        if let film = entry.film {
            Label("\(film.title) · \(entry.percent)%", systemImage: "film")
        } else {
            Label("No film", systemImage: "film")
        }
    }
}
