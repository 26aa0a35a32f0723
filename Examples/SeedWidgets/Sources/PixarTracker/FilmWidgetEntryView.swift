#if canImport(WidgetKit)
import SwiftUI
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct FilmWidgetEntryView: View {
    var entry: FilmEntry
    @Environment(\.widgetFamily) var family

    var body: some View {
        switch family {
        case .systemSmall:
            SmallFilmView(entry: entry)
        case .systemMedium:
            MediumFilmView(entry: entry)
        default:
            LargeFilmView(entry: entry)
        }
    }
}

struct SmallFilmView: View {
    let entry: FilmEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            if let film = entry.film {
                Text(film.title)
                    .font(.headline)
                    .lineLimit(2)
                Text("\(Int(entry.watchProgress * 100))% watched")
                    .font(.caption)
                    .foregroundStyle(.secondary)
            } else {
                Text("No film selected")
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
        }
        .padding()
    }
}

@available(iOS 16.0, *)
struct FilmAccessoryView: View {
    let entry: FilmEntry
    @Environment(\.widgetRenderingMode) var renderingMode

    var body: some View {
        // accessoryCircular: keep it simple — one value, no text
        ZStack {
            AccessoryWidgetBackground()
            if entry.film != nil {  // the article: `if let film = entry.film`, film unused (a warning)
                // Gauge shows watch progress as an arc
                Gauge(value: entry.watchProgress) {
                    Image(systemName: "film")
                }
                .gaugeStyle(.accessoryCircularCapacity)
            } else {
                Image(systemName: "film")
            }
        }
    }
}
