import Foundation
import GlimpseKit
import GlimpseMessages

/// LockWidgetView: switches on the family — CircularView, RectangularView, or an inline
/// Label — under `.containerBackground(.fill.tertiary, for: .widget)`.
enum LockWidgetView {
    static func entry(
        _ entry: LockScreenWidget.SimpleEntry, family: GlimpseWidgetV1.WidgetFamily, goal: Int
    ) -> GlimpseWidgetV1.TimelineEntry {
        GlimpseWidgetV1.TimelineEntry(
            date: entry.date, view: body(entry, family: family, goal: goal).containerBackground(.fillTertiary),
            url: "dailysteps://today")
    }

    static func body(_ entry: LockScreenWidget.SimpleEntry, family: GlimpseWidgetV1.WidgetFamily, goal: Int) -> View {
        switch family {
        case .accessoryCircular: circular(entry, goal: goal)
        case .accessoryRectangular: rectangular(entry)
        case .accessoryInline: .label("\(grouped(entry.value)) steps", systemImage: entry.systemImage)
        default: .text(entry.title)
        }
    }

    /// "8,420", as `Text("\(entry.value)")` formats an Int in an English locale.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// CircularView on AccessoryWidgetBackground: the symbol and "8k", here as the gauge's
    /// labels so the ring also shows the day's goal.
    static func circular(_ entry: LockScreenWidget.SimpleEntry, goal: Int) -> View {
        .zstack([
            .accessoryWidgetBackground,
            .gauge(
                value: Double(min(entry.value, goal)), in: 0...Double(goal), style: .accessoryCircular,
                label: .symbol(entry.systemImage).font(.system(size: 16, weight: .semibold)),
                currentValueLabel: .text("\(entry.value / 1000)k").font(
                    .system(size: 13, weight: .bold, design: .rounded))),
        ]).accessibilityLabel("\(entry.title): \(entry.value)")
    }

    static func rectangular(_ entry: LockScreenWidget.SimpleEntry) -> View {
        .hstack(
            spacing: 8,
            [
                .symbol(entry.systemImage).font(.title3.weight(.semibold)),
                .vstack(
                    alignment: .leading, spacing: 1,
                    [
                        .text(entry.title).font(.caption2.weight(.semibold)).foregroundStyle(.secondary),
                        .text("\(grouped(entry.value)) steps").font(.subheadline.weight(.bold)),
                    ]),
            ]
        ).frame(maxWidth: .infinity, alignment: .leading).accessibilityLabel("\(entry.title): \(entry.value) steps")
    }
}
