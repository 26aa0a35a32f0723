#if canImport(WidgetKit)
import AppIntents
import SwiftUI
import WidgetKit
#else
import Foundation
import GlimpseKit
#endif

struct CountEntry: TimelineEntry {
    let date: Date
    let count: Int
}

final class Store: @unchecked Sendable {
    static let shared = Store()
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
}

struct AddIntent: AppIntent {
    static var title: LocalizedStringResource = "Add one"
    func perform() async throws -> some IntentResult {
        Store.shared.add()
        WidgetCenter.shared.reloadTimelines(ofKind: "Counter")   // part of the tap: at once, free
        return .result()
    }
}

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> CountEntry { CountEntry(date: Date(), count: 0) }
    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        completion(CountEntry(date: context.date, count: Store.shared.count))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<CountEntry>) -> Void) {
        let entry = CountEntry(date: context.date, count: Store.shared.count)
        completion(Timeline(entries: [entry], policy: .never))
    }
}

struct CounterView: View {
    let entry: CountEntry
    @Environment(\.widgetFamily) var family

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("Count \(entry.count)").font(.headline)
            if family != .systemSmall {
                Text("tap to add").foregroundStyle(.secondary)
            }
            Button(intent: AddIntent()) {
                Label("Add", systemImage: "plus.circle.fill")
            }
            .id("add")
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

@main
struct Counter: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Counter", provider: Provider()) { entry in
            CounterView(entry: entry)
        }
        .configurationDisplayName("Counter")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
