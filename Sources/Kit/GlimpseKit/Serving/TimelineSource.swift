package import Foundation
package import GlimpseMessages

/// A widget extension's TimelineProvider in domain terms: the kinds it serves and, for a
/// kind in a context, its placeholder, snapshot and timeline. `WidgetProviderService`
/// puts it on the wire.
package protocol TimelineSource: Sendable {
    /// The widget kinds (`Widget.kind`) this provider answers for.
    var kinds: Set<String> { get }
    /// placeholder(in:): synchronous, sample data, rendered redacted.
    func placeholder(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) -> GlimpseWidgetV1.TimelineEntry
    /// getSnapshot(in:completion:): one entry, fast.
    func snapshot(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.TimelineEntry
    /// getTimeline(in:completion:): entries and a reload policy.
    func timeline(
        kind: String, in context: GlimpseAppV1.TimelineProviderContext, now: Date
    ) async -> GlimpseWidgetV1.Timeline
}

extension GlimpseWidgetV1.TimelineEntry {
    /// An entry at `date` showing `view`, opening `url` when tapped outside a control.
    package init(date: Date, view: WireView, url: String = "") {
        self.init(date: .init(date: date), view: view, widgetUrl: url)
    }
}

extension GlimpseWidgetV1.Timeline {
    package enum Policy { case atEnd, after(Date), never }

    package init(entries: [GlimpseWidgetV1.TimelineEntry], policy: Policy) {
        let reload: ReloadPolicy =
            switch policy {
            case .atEnd: .atEnd
            case .after(let date): .after(.init(date: date))
            case .never: .never
            }
        self.init(entries: entries, reloadPolicy: reload)
    }
}
