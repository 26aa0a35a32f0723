public import Foundation
import GlimpseMessages

/// WidgetKit's `TimelineEntry`: a date and what the widget shows from then on.
public protocol TimelineEntry: SendableMetatype {
    var date: Date { get }
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    public var relevance: TimelineEntryRelevance? { nil }
}

/// How much an entry matters to the Smart Stack, and for how long.
public struct TimelineEntryRelevance: Sendable, Hashable {
    public var score: Float
    public var duration: TimeInterval
    public init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }
}

/// When WidgetKit asks for the next timeline.
public enum TimelineReloadPolicy: Sendable, Hashable {
    /// After the last entry's date passes.
    case atEnd
    /// Only when the app asks (`WidgetCenter.shared.reloadTimelines(ofKind:)`).
    case never
    /// No earlier than the date.
    case after(Date)

    var wire: GlimpseWidgetV1.Timeline.ReloadPolicy {
        switch self {
        case .atEnd: .atEnd
        case .never: .never
        case .after(let date): .after(.init(date: date))
        }
    }
}

/// `Timeline(entries:policy:)`.
public struct Timeline<EntryType: TimelineEntry> {
    public var entries: [EntryType]
    public var policy: TimelineReloadPolicy
    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}

/// What a provider is told about the widget it answers for.
public struct TimelineProviderContext: Sendable {
    public var family: WidgetFamily
    public var displaySize: CGSize
    /// The widget gallery asks: answer fast, with sample data if the real data is slow.
    public var isPreview: Bool
    /// The device's clock when the request was made (on a phone, `Date()` in the extension;
    /// on Glimpse the device may run a clock of its own: a frozen or advanced one).
    public var date: Date
    /// The app the widget is of.
    public var bundleID: String
    let environment: EnvironmentValues

    init(_ context: GlimpseAppV1.TimelineProviderContext, now: Date) {
        environment = EnvironmentValues(context, now: now)
        family = environment.widgetFamily
        displaySize = environment.displaySize
        isPreview = context.isPreview
        date = now
        bundleID = context.bundleId
    }

    /// A context for a test of your provider outside a device.
    public init(family: WidgetFamily, displaySize: CGSize = .zero, isPreview: Bool = false, date: Date = Date()) {
        var environment = EnvironmentValues()
        environment.widgetFamily = family
        environment.displaySize = displaySize
        environment.date = date
        self.environment = environment
        self.family = family
        self.displaySize = displaySize
        self.isPreview = isPreview
        self.date = date
        self.bundleID = ""
    }
}

/// `TimelineProvider`: WidgetKit's provider with completion handlers. WidgetKit may call it
/// from several threads at once, and so does Glimpse: keep shared state behind a lock.
public protocol TimelineProvider: SendableMetatype {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext
    func placeholder(in context: Context) -> Entry
    func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void)
    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void)
}

/// `AppIntentTimelineProvider`: the provider of an `AppIntentConfiguration`, async, with
/// the widget's configuration intent.
public protocol AppIntentTimelineProvider: SendableMetatype {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: WidgetConfigurationIntent
    typealias Context = TimelineProviderContext
    func placeholder(in context: Context) -> Entry
    func snapshot(for configuration: Intent, in context: Context) async -> Entry
    func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>
}

/// A value used where Swift cannot prove it is Sendable: a provider, an entry or a content
/// closure of the app's, which WidgetKit too calls from its own threads.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension TimelineProvider {
    func snapshotEntry(in context: Context) async -> Entry {
        await withCheckedContinuation { (answer: CheckedContinuation<Unchecked<Entry>, Never>) in
            getSnapshot(in: context) { answer.resume(returning: Unchecked($0)) }
        }.value
    }

    func timeline(in context: Context) async -> Timeline<Entry> {
        await withCheckedContinuation { (answer: CheckedContinuation<Unchecked<Timeline<Entry>>, Never>) in
            getTimeline(in: context) { answer.resume(returning: Unchecked($0)) }
        }.value
    }
}
