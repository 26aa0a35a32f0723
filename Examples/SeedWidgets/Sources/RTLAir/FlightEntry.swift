#if canImport(WidgetKit)
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct FlightEntry: TimelineEntry {
    let date: Date
    let flight: Flight
    let status: FlightStatus
}
