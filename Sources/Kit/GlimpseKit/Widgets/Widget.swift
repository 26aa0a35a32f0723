import Foundation
import GlimpseMessages

/// WidgetKit's `Widget`: a kind and its configuration. Mark one `@main` (or a
/// `WidgetBundle`) and the process serves it: see `GlimpseApp`.
public protocol Widget {
    associatedtype Body: WidgetConfiguration
    init()
    var body: Body { get }
    /// Intents this process performs that no `Button(intent:)` of a drawn entry names yet:
    /// an intent of an entry drawn before a restart, one a script runs (see `GlimpseApp`).
    static var intents: [any AppIntent.Type] { get }
}

extension Widget {
    public static var intents: [any AppIntent.Type] { [] }
}

/// What a widget's `body` is: `StaticConfiguration`, `AppIntentConfiguration`,
/// `ActivityConfiguration`, with their modifiers.
public protocol WidgetConfiguration {}

/// The configurations GlimpseKit serves: a widget kind, or a Live Activity's views.
protocol Configurations {
    var configured: Configured { get }
}

/// What a bundle's widgets declare, by kind and by activity attributes type.
struct Configured: Sendable {
    var widgets: [WidgetDefinition] = []
    var activities: [ActivityDefinition] = []

    static func + (lhs: Configured, rhs: Configured) -> Configured {
        Configured(widgets: lhs.widgets + rhs.widgets, activities: lhs.activities + rhs.activities)
    }

    init(widgets: [WidgetDefinition] = [], activities: [ActivityDefinition] = []) {
        self.widgets = widgets
        self.activities = activities
    }

    init(_ configuration: some WidgetConfiguration) {
        self = (configuration as? any Configurations)?.configured ?? Configured()
    }
}

/// One widget kind as the provider service answers it.
struct WidgetDefinition: Sendable {
    typealias Request = (context: GlimpseAppV1.TimelineProviderContext, now: Date)

    var kind: String
    var displayName = ""
    var description = ""
    var families = WidgetFamily.defaultFamilies
    /// The configuration intent of an AppIntentConfiguration.
    var intentType: String?
    var placeholder: @Sendable (Request) -> GlimpseWidgetV1.TimelineEntry
    var snapshot: @Sendable (Request) async -> GlimpseWidgetV1.TimelineEntry
    var timeline: @Sendable (Request) async -> GlimpseWidgetV1.Timeline
}

extension WidgetDefinition {
    /// A kind whose provider answers entries of `Entry`, each drawn with `content` in the
    /// request's environment. `snapshot` and `timeline` get the context and the request's
    /// own (its configuration).
    init<Entry: TimelineEntry, Content: View>(
        kind: String, content: @escaping (Entry) -> Content, placeholder: @escaping (TimelineProviderContext) -> Entry,
        snapshot: @escaping (TimelineProviderContext, GlimpseAppV1.TimelineProviderContext) async -> Unchecked<Entry>,
        timeline:
            @escaping (TimelineProviderContext, GlimpseAppV1.TimelineProviderContext) async -> Unchecked<
                Timeline<Entry>
            >
    ) {
        let (content, placeholder) = (Unchecked(content), Unchecked(placeholder))
        let (snapshot, timeline) = (Unchecked(snapshot), Unchecked(timeline))
        self.init(
            kind: kind,
            placeholder: { request in
                let context = TimelineProviderContext(request.context, now: request.now)
                return drawEntry(placeholder.value(context), content.value, context.environment)
            },
            snapshot: { request in
                let context = TimelineProviderContext(request.context, now: request.now)
                let entry = await snapshot.value(context, request.context)
                return drawEntry(entry.value, content.value, context.environment)
            },
            timeline: { request in
                let context = TimelineProviderContext(request.context, now: request.now)
                let answer = await timeline.value(context, request.context)
                return drawTimeline(answer.value, content.value, context.environment)
            })
    }
}

extension WidgetFamily {
    /// A configuration without `.supportedFamilies`: the Home Screen's three sizes.
    static let defaultFamilies: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge]
}

/// Draws an entry with the configuration's content in the context's environment.
func drawEntry<Entry: TimelineEntry, Content: View>(
    _ entry: Entry, _ content: (Entry) -> Content, _ environment: EnvironmentValues
) -> GlimpseWidgetV1.TimelineEntry {
    var environment = environment
    environment.date = entry.date
    let drawn = DrawingNotes.draw(environment) { wire(content(entry)) }
    var wireEntry = GlimpseWidgetV1.TimelineEntry(
        date: .init(date: entry.date), view: drawn.view, widgetUrl: drawn.widgetURL ?? "")
    if let relevance = entry.relevance {
        wireEntry.relevance = GlimpseWidgetV1.TimelineEntryRelevance(
            score: relevance.score, duration: .init(seconds: Int64(relevance.duration), nanos: 0))
    }
    return wireEntry
}

func drawTimeline<Entry: TimelineEntry, Content: View>(
    _ timeline: Timeline<Entry>, _ content: (Entry) -> Content, _ environment: EnvironmentValues
) -> GlimpseWidgetV1.Timeline {
    GlimpseWidgetV1.Timeline(
        entries: timeline.entries.map { drawEntry($0, content, environment) }, reloadPolicy: timeline.policy.wire)
}

/// `StaticConfiguration(kind:provider:content:)`.
public struct StaticConfiguration<Content: View>: WidgetConfiguration, Configurations {
    var definition: WidgetDefinition

    public init<Provider: TimelineProvider>(
        kind: String, provider: Provider, @ViewBuilder content: @escaping (Provider.Entry) -> Content
    ) {
        definition = WidgetDefinition(
            kind: kind, content: content, placeholder: provider.placeholder(in:),
            snapshot: { context, _ in Unchecked(await provider.snapshotEntry(in: context)) },
            timeline: { context, _ in Unchecked(await provider.timeline(in: context)) })
    }

    var configured: Configured { Configured(widgets: [definition]) }
}

/// `AppIntentConfiguration(kind:intent:provider:content:)`: a widget the person configures
/// (the placement's parameters are the intent's `@Parameter`s).
public struct AppIntentConfiguration<Intent: WidgetConfigurationIntent, Content: View>: WidgetConfiguration,
    Configurations
{
    var definition: WidgetDefinition

    public init<Provider: AppIntentTimelineProvider>(
        kind: String, intent: Intent.Type = Intent.self, provider: Provider,
        @ViewBuilder content: @escaping (Provider.Entry) -> Content
    ) where Provider.Intent == Intent {
        IntentRegistry.shared.register(Intent.self)
        definition = WidgetDefinition(
            kind: kind, content: content, placeholder: provider.placeholder(in:),
            snapshot: { context, wire in
                Unchecked(await provider.snapshot(for: Intent.make(wire.configuration), in: context))
            },
            timeline: { context, wire in
                Unchecked(await provider.timeline(for: Intent.make(wire.configuration), in: context))
            })
        definition.intentType = String(describing: Intent.self)
    }

    var configured: Configured { Configured(widgets: [definition]) }
}

/// A configuration with its display name, description and families set.
public struct ModifiedWidgetConfiguration: WidgetConfiguration, Configurations {
    let configured: Configured
}

extension WidgetConfiguration {
    func changingWidgets(_ change: (inout WidgetDefinition) -> Void) -> ModifiedWidgetConfiguration {
        var configured = Configured(self)
        for index in configured.widgets.indices { change(&configured.widgets[index]) }
        return ModifiedWidgetConfiguration(configured: configured)
    }

    public func configurationDisplayName(_ name: some StringProtocol) -> ModifiedWidgetConfiguration {
        changingWidgets { $0.displayName = String(name) }
    }

    public func description(_ description: some StringProtocol) -> ModifiedWidgetConfiguration {
        changingWidgets { $0.description = String(description) }
    }

    public func supportedFamilies(_ families: [WidgetFamily]) -> ModifiedWidgetConfiguration {
        changingWidgets { $0.families = families }
    }

    /// Accepted and not drawn: Glimpse draws the system's content margins.
    public func contentMarginsDisabled() -> ModifiedWidgetConfiguration { changingWidgets { _ in } }
}

/// `WidgetBundle`: several widgets (and Live Activities) in one extension.
public protocol WidgetBundle {
    associatedtype Body: Widget
    init()
    @WidgetBundleBuilder var body: Body { get }
    /// As `Widget.intents`.
    static var intents: [any AppIntent.Type] { get }
}

extension WidgetBundle {
    public static var intents: [any AppIntent.Type] { [] }
}

/// The widgets of a bundle.
public struct BundledWidgets: Widget {
    let configured: Configured
    public init() { configured = Configured() }
    init(_ configured: Configured) { self.configured = configured }
    public var body: ModifiedWidgetConfiguration { ModifiedWidgetConfiguration(configured: configured) }
}

@resultBuilder
public enum WidgetBundleBuilder {
    public static func buildExpression(_ widget: some Widget) -> BundledWidgets { BundledWidgets(widget.configured) }
    public static func buildBlock(_ widgets: BundledWidgets...) -> BundledWidgets {
        BundledWidgets(widgets.reduce(Configured()) { $0 + $1.configured })
    }
    public static func buildOptional(_ widgets: BundledWidgets?) -> BundledWidgets { widgets ?? BundledWidgets() }
    public static func buildEither(first: BundledWidgets) -> BundledWidgets { first }
    public static func buildEither(second: BundledWidgets) -> BundledWidgets { second }
    public static func buildLimitedAvailability(_ widgets: BundledWidgets) -> BundledWidgets { widgets }
}

extension Widget {
    var configured: Configured { Configured(body) }
}

extension WidgetBundle {
    var configured: Configured { body.configured }
}
