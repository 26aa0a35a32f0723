import Foundation
import GlimpseKit
import GlimpseMessages

/// Seed 003's "Daily Steps" Lock Screen widget (kind "LockScreenWidget"): one entry now,
/// refreshed every 15 minutes (`.after(now + 15 min)`), in accessoryCircular,
/// accessoryRectangular and accessoryInline.
struct LockScreenWidget: TimelineSource {
    static let kind = "LockScreenWidget"
    static let refreshMinutes = 15

    struct SimpleEntry: Sendable, Hashable {
        var date: Date
        var title: String
        var value: Int
        var systemImage: String
    }

    var source = DailySteps()
    var kinds: Set<String> { [Self.kind] }

    /// The article's sample: 8,420 steps, walking.
    static func sample(_ date: Date) -> SimpleEntry {
        SimpleEntry(date: date, title: "Steps", value: 8_420, systemImage: "figure.walk")
    }

    func entry(at date: Date) -> SimpleEntry {
        SimpleEntry(date: date, title: "Steps", value: source.steps(at: date), systemImage: "figure.walk")
    }

    func placeholder(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) -> GlimpseWidgetV1.TimelineEntry {
        LockWidgetView.entry(Self.sample(now), family: context.family, goal: source.goal)
    }

    func snapshot(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.TimelineEntry {
        LockWidgetView.entry(
            context.isPreview ? Self.sample(now) : entry(at: now), family: context.family, goal: source.goal)
    }

    func timeline(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.Timeline {
        let next = now.adding(minutes: Self.refreshMinutes)
        return GlimpseWidgetV1.Timeline(
            entries: [LockWidgetView.entry(entry(at: now), family: context.family, goal: source.goal)],
            policy: .after(next))
    }
}
