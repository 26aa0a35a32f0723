package import GlimpseMessages

extension GlimpseWidgetV1.View {
    /// The views nested directly in this one: a stack's children, the labels of gauges,
    /// progress views, labels, buttons, toggles and links.
    package var nestedViews: [GlimpseWidgetV1.View] {
        switch kind {
        case .stack(let stack)?: stack.children
        case .gauge(let g)?: [g.label, g.currentValueLabel, g.minimumValueLabel, g.maximumValueLabel].compactMap { $0 }
        case .progress(let p)?: p.label.map { [$0] } ?? []
        case .label(let l)?: [l.title, l.icon].compactMap { $0 }
        case .button(let b)?: b.label.map { [$0] } ?? []
        case .toggle(let t)?: t.label.map { [$0] } ?? []
        case .link(let l)?: l.label.map { [$0] } ?? []
        default: []
        }
    }

    /// The app images (glimpse-asset names) this view tree shows: what the gateway fetches
    /// before drawing it, and what glimpse-timeline pins and prefetches for an entry.
    package var assetNames: Set<String> {
        var names = Set<String>()
        Self.collect(self, into: &names)
        return names
    }

    private static func collect(_ view: GlimpseWidgetV1.View, into names: inout Set<String>) {
        if case .image(let image)? = view.kind, !image.assetName.isEmpty { names.insert(image.assetName) }
        for child in view.nestedViews { collect(child, into: &names) }
    }
}
