@testable import DemoApps
import GlimpseKit
import GlimpseMessages

/// Reading a view tree the way a test asserts on it: its texts in order, views by id,
/// the intents its buttons carry.
extension GlimpseWidgetV1.View {
    /// Every view of the tree, depth first, this one first.
    var all: [GlimpseWidgetV1.View] {
        var views = [self]
        for child in children { views += child.all }
        return views
    }

    var children: [GlimpseWidgetV1.View] {
        switch kind {
        case .stack(let stack)?: stack.children
        case .label(let label)?: [label.title, label.icon].compactMap { $0 }
        case .button(let button)?: button.label.map { [$0] } ?? []
        case .link(let link)?: link.label.map { [$0] } ?? []
        case .gauge(let gauge)?: [gauge.label, gauge.currentValueLabel].compactMap { $0 }
        case .toggle(let toggle)?: toggle.label.map { [$0] } ?? []
        default: []
        }
    }

    var texts: [String] {
        all.compactMap { if case .text(let text)? = $0.kind { text.content } else { nil } }
    }

    var symbols: [String] {
        all.compactMap { if case .symbol(let symbol)? = $0.kind { symbol.systemName } else { nil } }
    }

    var images: [String] {
        all.compactMap { if case .image(let image)? = $0.kind { image.assetName } else { nil } }
    }

    var buttonIntents: [String] {
        all.compactMap { if case .button(let button)? = $0.kind { button.intent?.intentType } else { nil } }
    }

    func view(id: String) -> GlimpseWidgetV1.View? { all.first { $0.id == id } }

    var hasContainerBackground: Bool {
        modifiers.contains { if case .containerBackground? = $0.kind { true } else { false } }
    }

    var isEmpty: Bool { kind == nil }
}

extension GlimpseAppV1.TimelineProviderContext {
    static func family(_ family: GlimpseWidgetV1.WidgetFamily) -> Self {
        Self(family: family)
    }
}
