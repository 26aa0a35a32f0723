#if canImport(WidgetKit)
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> FlightEntry {
        FlightEntry(date: Date(), flight: .mock, status: .notCheckedIn)
    }

    func getSnapshot(in context: Context, completion: @escaping (FlightEntry) -> Void) {
        completion(FlightEntry(date: Date(), flight: .mock, status: FlightStore.shared.status))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<FlightEntry>) -> Void) {
        let entry = FlightEntry(date: Date(), flight: .mock, status: FlightStore.shared.status)
        // .never — all timeline refreshes are intent-driven, not scheduled
        completion(Timeline(entries: [entry], policy: .never))
    }
}
