import Foundation
import GlimpseKit
import GlimpseMessages

/// Seed 004's Provider, shared by both widgets (MediumWidget on the Home Screen,
/// LockScreenWidget on the Lock Screen): one entry now from FlightStore's status,
/// `.never` — every refresh is an intent's reload.
struct FlightProvider: TimelineSource {
    static let mediumKind = "MediumWidget"
    static let lockScreenKind = "LockScreenWidget"
    static let url = "rtlair://flight/RTL001"

    let store: FlightStore
    var kinds: Set<String> { [Self.mediumKind, Self.lockScreenKind] }

    struct FlightEntry: Sendable, Hashable {
        var date: Date
        var flight: Flight
        var status: FlightStatus
    }

    func placeholder(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) -> GlimpseWidgetV1.TimelineEntry {
        entry(kind, FlightEntry(date: now, flight: .mock(on: now), status: .notCheckedIn))
    }

    func snapshot(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.TimelineEntry {
        entry(kind, FlightEntry(date: now, flight: .mock(on: now), status: await store.status()))
    }

    func timeline(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.Timeline {
        let current = FlightEntry(date: now, flight: .mock(on: now), status: await store.status())
        return GlimpseWidgetV1.Timeline(entries: [entry(kind, current)], policy: .never)
    }

    func entry(_ kind: String, _ entry: FlightEntry) -> GlimpseWidgetV1.TimelineEntry {
        let view =
            kind == Self.lockScreenKind
            ? LockScreenWidgetView(entry: entry).containerBackground(for: .widget) {}.drawn()
            : MediumWidgetView(entry: entry).containerBackground(Color.black, for: .widget).drawn()
        return GlimpseWidgetV1.TimelineEntry(date: entry.date, view: view, url: Self.url)
    }
}
