#if canImport(WidgetKit)
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct FilmTimelineProvider: TimelineProvider {
    // Called immediately when the widget is first placed or the system needs
    // a fast render. Must return synchronously — no async work here.
    func placeholder(in context: Context) -> FilmEntry {
        .placeholder
    }

    // Called for the widget gallery and when the system needs a single entry
    // quickly. You CAN do async work here; the system waits a short time.
    func getSnapshot(in context: Context, completion: @escaping (FilmEntry) -> Void) {
        Task {
            let film = try? await FilmStore.shared.fetchCurrentFilm()
            let progress = FilmStore.shared.watchProgress()
            completion(FilmEntry(date: .now, film: film, watchProgress: progress))
        }
    }

    // The main method. Fetch your data, build a series of entries, and tell
    // the system when to call you again via TimelineReloadPolicy.
    func getTimeline(in context: Context, completion: @escaping (Timeline<FilmEntry>) -> Void) {
        Task {
            let film = try? await FilmStore.shared.fetchCurrentFilm()
            let progress = FilmStore.shared.watchProgress()

            // Build entries for the next hour in 15-minute increments
            var entries: [FilmEntry] = []
            let now = Date.now
            for minuteOffset in stride(from: 0, through: 60, by: 15) {
                let entryDate = Calendar.current.date(
                    byAdding: .minute,
                    value: minuteOffset,
                    to: now
                )!
                entries.append(FilmEntry(date: entryDate, film: film, watchProgress: progress))
            }

            // .atEnd: system calls getTimeline again when the last entry expires
            // .after(date): system calls again at a specific date
            // .never: don't refresh until the app explicitly requests it
            let timeline = Timeline(entries: entries, policy: .atEnd)
            completion(timeline)
        }
    }
}
