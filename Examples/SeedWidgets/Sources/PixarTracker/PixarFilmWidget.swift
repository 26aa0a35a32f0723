#if canImport(WidgetKit)
import WidgetKit
import SwiftUI
#else
import Foundation
import GlimpseKit
#endif

// The Widget entry point — registered in your widget extension's @main
@available(iOS 14.0, *)
struct PixarFilmWidget: Widget {
    let kind: String = "PixarFilmWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: FilmTimelineProvider()) { entry in
            FilmWidgetEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget) // Required iOS 17+
        }
        .configurationDisplayName("Pixar Now Playing")
        .description("Shows the Pixar film you're currently watching.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}
