#if canImport(WidgetKit)
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct FilmEntry: TimelineEntry {
    let date: Date
    let film: PixarFilm?
    let watchProgress: Double // 0.0–1.0

    // A placeholder entry used during widget gallery previews
    static let placeholder = FilmEntry(
        date: .now,
        film: PixarFilm(title: "Coco", year: 2017, posterName: "coco-poster"),
        watchProgress: 0.42
    )
}

struct PixarFilm: Codable, Identifiable {
    let id: String
    let title: String
    let year: Int
    let posterName: String
}
