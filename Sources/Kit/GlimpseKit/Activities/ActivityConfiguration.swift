public import Foundation
package import GlimpseMessages

/// ActivityKit's `ActivityAttributes`: what stays for the activity's life, and its
/// `ContentState`, what updates and pushes change. Encoded as ActivityKit encodes them (the
/// default JSONEncoder: dates as seconds since 2001), so a push server's payload decodes.
public protocol ActivityAttributes: Codable, SendableMetatype {
    associatedtype ContentState: Codable & Hashable
}

/// What `ActivityConfiguration`'s closures receive.
public struct ActivityViewContext<Attributes: ActivityAttributes> {
    public let attributes: Attributes
    public let state: Attributes.ContentState
    public let activityID: String
    /// The stale date has passed.
    public let isStale: Bool
}

/// `ActivityConfiguration(for: Attributes.self) { context in … } dynamicIsland: { context in
/// DynamicIsland { … } compactLeading: { … } compactTrailing: { … } minimal: { … } }`.
public struct ActivityConfiguration<Attributes: ActivityAttributes>: WidgetConfiguration, Configurations {
    let definition: ActivityDefinition

    public init<Content: View>(
        for attributesType: Attributes.Type = Attributes.self,
        @ViewBuilder content: @escaping (ActivityViewContext<Attributes>) -> Content,
        dynamicIsland: @escaping (ActivityViewContext<Attributes>) -> DynamicIsland
    ) {
        let content = Unchecked(content)
        let dynamicIsland = Unchecked(dynamicIsland)
        let typeName = String(describing: Attributes.self)
        definition = ActivityDefinition(attributesType: typeName) { request in
            let context = try ActivityViewContext<Attributes>(request, typeName: typeName)
            var environment = EnvironmentValues()
            environment.colorScheme = request.colorScheme == .dark ? .dark : .light
            environment.date = request.now.dateOrNow
            let lockScreen = DrawingNotes.draw(environment) { wire(content.value(context)) }
            let island = EnvironmentValues.$current.withValue(environment) { dynamicIsland.value(context).wire }
            return GlimpseWidgetV1.ActivityViews(
                lockScreen: lockScreen.view, dynamicIsland: island, widgetUrl: lockScreen.widgetURL ?? "")
        }
    }

    var configured: Configured { Configured(activities: [definition]) }

    /// The views of one request, as the ActivityConfiguration service answers it.
    package func views(for request: GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews {
        try definition.views(request)
    }
}

extension ActivityViewContext {
    init(_ request: GlimpseAppV1.ActivityViewsRequest, typeName: String) throws {
        (attributes, state) = try request.decoded(Attributes.self, Attributes.ContentState.self, typeName: typeName)
        activityID = request.activityId
        isStale = request.isStale
    }
}

/// Where an expanded region sits: around the camera, below it, or at the bottom.
public enum DynamicIslandExpandedRegionPosition: Sendable {
    case leading, trailing, center, bottom
}

/// `DynamicIslandExpandedRegion(.leading, priority:) { … }`.
public struct DynamicIslandExpandedRegion {
    let position: DynamicIslandExpandedRegionPosition
    let region: GlimpseWidgetV1.ExpandedRegion

    public init(
        _ position: DynamicIslandExpandedRegionPosition, priority: Double = 0, @ViewBuilder content: () -> some View
    ) {
        self.position = position
        let notes = DrawingNotes.current ?? DrawingNotes()
        let view = DrawingNotes.$current.withValue(notes) { wire(content()) }
        var region = GlimpseWidgetV1.ExpandedRegion(view: view, priority: priority)
        region.belowIfTooWide = notes.belowIfTooWide
        self.region = region
    }
}

@resultBuilder
public enum DynamicIslandExpandedContentBuilder {
    public static func buildExpression(_ region: DynamicIslandExpandedRegion) -> [DynamicIslandExpandedRegion] {
        [region]
    }
    public static func buildBlock(_ parts: [DynamicIslandExpandedRegion]...) -> [DynamicIslandExpandedRegion] {
        parts.flatMap { $0 }
    }
    public static func buildOptional(_ part: [DynamicIslandExpandedRegion]?) -> [DynamicIslandExpandedRegion] {
        part ?? []
    }
    public static func buildEither(first: [DynamicIslandExpandedRegion]) -> [DynamicIslandExpandedRegion] { first }
    public static func buildEither(second: [DynamicIslandExpandedRegion]) -> [DynamicIslandExpandedRegion] { second }
}

/// `DynamicIsland { expanded regions } compactLeading: { … } compactTrailing: { … }
/// minimal: { … }`, with `.keylineTint(_:)` and `.widgetURL(_:)`.
public struct DynamicIsland {
    var wire: GlimpseWidgetV1.DynamicIslandViews

    public init(
        @DynamicIslandExpandedContentBuilder expanded: () -> [DynamicIslandExpandedRegion],
        @ViewBuilder compactLeading: () -> some View, @ViewBuilder compactTrailing: () -> some View,
        @ViewBuilder minimal: () -> some View
    ) {
        var views = GlimpseWidgetV1.DynamicIslandViews()
        for region in expanded() {
            switch region.position {
            case .leading: views.expandedLeading = region.region
            case .trailing: views.expandedTrailing = region.region
            case .center: views.expandedCenter = region.region
            case .bottom: views.expandedBottom = region.region
            }
        }
        views.compactLeading = GlimpseKit.wire(compactLeading())
        views.compactTrailing = GlimpseKit.wire(compactTrailing())
        views.minimal = GlimpseKit.wire(minimal())
        wire = views
    }

    public func keylineTint(_ color: Color?) -> DynamicIsland {
        var island = self
        island.wire.keylineTint = color?.value
        return island
    }

    public func widgetURL(_ url: URL?) -> DynamicIsland {
        var island = self
        island.wire.widgetUrl = url?.absoluteString ?? ""
        return island
    }

    /// Accepted; Glimpse draws the island's own margins.
    public func contentMargins(_ edges: Edge.Set = .all, _ length: Double? = nil) -> DynamicIsland { self }
}
