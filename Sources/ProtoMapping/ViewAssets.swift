public import GlimpseMessages

extension GlimpseWidgetV1.View {
    /// The app images (glimpse-asset names) this view tree shows: what the gateway fetches
    /// before drawing it, and what glimpse-timeline pins and prefetches for an entry.
    public var assetNames: Set<String> {
        var names = Set<String>()
        Self.collect(self, into: &names)
        return names
    }

    private static func collect(_ view: GlimpseWidgetV1.View?, into names: inout Set<String>) {
        guard let view else { return }
        switch view.kind {
        case .image(let image)?: if !image.assetName.isEmpty { names.insert(image.assetName) }
        case .stack(let stack)?: for child in stack.children { collect(child, into: &names) }
        case .gauge(let g)?:
            for v in [g.label, g.currentValueLabel, g.minimumValueLabel, g.maximumValueLabel] { collect(v, into: &names) }
        case .progress(let p)?: collect(p.label, into: &names)
        case .label(let l)?:
            collect(l.title, into: &names)
            collect(l.icon, into: &names)
        case .button(let b)?: collect(b.label, into: &names)
        case .toggle(let t)?: collect(t.label, into: &names)
        case .link(let l)?: collect(l.label, into: &names)
        default: break
        }
    }
}
