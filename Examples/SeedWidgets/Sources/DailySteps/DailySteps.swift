#if canImport(WidgetKit)
import WidgetKit
import SwiftUI
#else
import Foundation
import GlimpseKit
#endif

// MARK: - Timeline Entry

struct SimpleEntry: TimelineEntry {
    let date: Date
    let title: String
    let value: Int
    let systemImage: String
}

// MARK: - Timeline Provider

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> SimpleEntry {
        SimpleEntry(date: .now, title: "Steps", value: 8_420, systemImage: "figure.walk")
    }

    func getSnapshot(in context: Context, completion: @escaping (SimpleEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<SimpleEntry>) -> Void) {
        let entry = SimpleEntry(date: .now, title: "Steps", value: 8_420, systemImage: "figure.walk")
        // Refresh every 15 minutes
        let nextUpdate = Calendar.current.date(byAdding: .minute, value: 15, to: .now)!
        completion(Timeline(entries: [entry], policy: .after(nextUpdate)))
    }
}

// MARK: - Sub-views per family

struct CircularView: View {
    let entry: SimpleEntry
    var body: some View {
        ZStack {
            AccessoryWidgetBackground()
            VStack(spacing: 2) {
                Image(systemName: entry.systemImage)
                    .font(.system(size: 16, weight: .semibold))
                Text("\(entry.value / 1000)k")
                    .font(.system(size: 13, weight: .bold, design: .rounded))
            }
        }
        .accessibilityLabel("\(entry.title): \(entry.value)")
    }
}

struct RectangularView: View {
    let entry: SimpleEntry
    var body: some View {
        HStack(spacing: 8) {
            Image(systemName: entry.systemImage)
                .font(.title3.weight(.semibold))
            VStack(alignment: .leading, spacing: 1) {
                Text(entry.title)
                    .font(.caption2.weight(.semibold))
                    .foregroundStyle(.secondary)
                Text("\(entry.value) steps")
                    .font(.subheadline.weight(.bold))
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .accessibilityElement(children: .combine)
        .accessibilityLabel("\(entry.title): \(entry.value) steps")
    }
}

// MARK: - Root Widget View

struct LockWidgetView: View {
    @Environment(\.widgetFamily) var family
    let entry: SimpleEntry

    var body: some View {
        Group {
            switch family {
            case .accessoryCircular:
                CircularView(entry: entry)
            case .accessoryRectangular:
                RectangularView(entry: entry)
            case .accessoryInline:
                Label("\(entry.value) steps", systemImage: entry.systemImage)
            default:
                Text(entry.title)
            }
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

// MARK: - Widget Configuration

@main
struct LockScreenWidget: Widget {
    let kind = "LockScreenWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            LockWidgetView(entry: entry)
        }
        .configurationDisplayName("Daily Steps")
        .description("Your step count on the lock screen.")
        .supportedFamilies([
            .accessoryCircular,
            .accessoryRectangular,
            .accessoryInline
        ])
    }
}

// MARK: - Preview

#if canImport(WidgetKit)
#Preview(as: .accessoryCircular) {
    LockScreenWidget()
} timeline: {
    SimpleEntry(date: .now, title: "Steps", value: 8_420, systemImage: "figure.walk")
    SimpleEntry(date: .now, title: "Steps", value: 10_001, systemImage: "figure.run")
}
#endif
