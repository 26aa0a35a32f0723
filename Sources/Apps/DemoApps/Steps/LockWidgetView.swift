import Foundation
import GlimpseKit
import GlimpseMessages

/// LockWidgetView: switches on the family — CircularView, RectangularView, or an inline
/// Label — under `.containerBackground(.fill.tertiary, for: .widget)`, in GlimpseKit's
/// SwiftUI-shaped views as seed 003 writes them.
struct LockWidgetView: GlimpseKit.View {
    @Environment(\.widgetFamily) var family
    let entry: LockScreenWidget.SimpleEntry
    let goal: Int

    /// The entry on the wire, drawn for `family`.
    static func entry(
        _ entry: LockScreenWidget.SimpleEntry, family: GlimpseWidgetV1.WidgetFamily, goal: Int
    ) -> GlimpseWidgetV1.TimelineEntry {
        var environment = EnvironmentValues()
        environment.widgetFamily = GlimpseKit.WidgetFamily(family) ?? .systemSmall
        return GlimpseWidgetV1.TimelineEntry(
            date: entry.date, view: LockWidgetView(entry: entry, goal: goal).drawn(in: environment),
            url: "dailysteps://today")
    }

    var body: some GlimpseKit.View {
        Group {
            switch family {
            case .accessoryCircular: CircularView(entry: entry, goal: goal)
            case .accessoryRectangular: RectangularView(entry: entry)
            case .accessoryInline: Label("\(Self.grouped(entry.value)) steps", systemImage: entry.systemImage)
            default: Text(entry.title)
            }
        }
        .containerBackground(.fill.tertiary, for: .widget)
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
}

/// CircularView on AccessoryWidgetBackground: the symbol and "8k", here as the gauge's
/// labels so the ring also shows the day's goal.
struct CircularView: GlimpseKit.View {
    let entry: LockScreenWidget.SimpleEntry
    let goal: Int

    var body: some GlimpseKit.View {
        ZStack {
            AccessoryWidgetBackground()
            Gauge(value: Double(min(entry.value, goal)), in: 0...Double(goal)) {
                Image(systemName: entry.systemImage).font(.system(size: 16, weight: .semibold))
            } currentValueLabel: {
                Text("\(entry.value / 1000)k").font(.system(size: 13, weight: .bold, design: .rounded))
            }
            .gaugeStyle(.accessoryCircular)
        }
        .accessibilityLabel("\(entry.title): \(entry.value)")
    }
}

struct RectangularView: GlimpseKit.View {
    let entry: LockScreenWidget.SimpleEntry

    var body: some GlimpseKit.View {
        HStack(spacing: 8) {
            Image(systemName: entry.systemImage).font(.title3.weight(.semibold))
            VStack(alignment: .leading, spacing: 1) {
                Text(entry.title).font(.caption2.weight(.semibold)).foregroundStyle(.secondary)
                Text("\(LockWidgetView.grouped(entry.value)) steps").font(.subheadline.weight(.bold))
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .accessibilityLabel("\(entry.title): \(entry.value) steps")
    }
}
