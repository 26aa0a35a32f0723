import GlimpseMessages

/// What a view tree asks of the rest of Glimpse: the app's images it shows (resolved by
/// name at glimpse-asset) and the intents its Buttons and Toggles invoke (performed by
/// glimpse-intent with the parameters the view pre-set).
struct ViewUses: Sendable, Hashable {
    struct Control: Sendable, Hashable {
        /// "Button" or "Toggle".
        var control: String
        var intent: GlimpseWidgetV1.IntentInvocation?
        /// The view's `.id`, or its label's text, to name it in a message.
        var name: String
    }

    var images: [String] = []
    var controls: [Control] = []

    /// Every image and control in `view`, depth first.
    static func of(_ view: GlimpseWidgetV1.View?) -> ViewUses {
        var uses = ViewUses()
        if let view { uses.visit(view) }
        return uses
    }

    mutating func visit(_ view: GlimpseWidgetV1.View) {
        switch view.kind {
        case .image(let image)?:
            images.append(image.assetName)
        case .stack(let stack)?:
            for child in stack.children { visit(child) }
        case .label(let label)?:
            visit(label.title)
            visit(label.icon)
        case .gauge(let gauge)?:
            for label in [gauge.label, gauge.currentValueLabel, gauge.minimumValueLabel, gauge.maximumValueLabel] {
                visit(label)
            }
        case .progress(let progress)?:
            visit(progress.label)
        case .button(let button)?:
            controls.append(
                Control(control: "Button", intent: button.intent, name: Self.name(view, label: button.label)))
            visit(button.label)
        case .toggle(let toggle)?:
            controls.append(
                Control(control: "Toggle", intent: toggle.intent, name: Self.name(view, label: toggle.label)))
            visit(toggle.label)
        case .link(let link)?:
            visit(link.label)
        default:
            break
        }
    }

    mutating func visit(_ view: GlimpseWidgetV1.View?) {
        if let view { visit(view) }
    }

    static func name(_ view: GlimpseWidgetV1.View, label: GlimpseWidgetV1.View?) -> String {
        if !view.id.isEmpty { return "\"\(view.id)\"" }
        let text = ViewUses.text(of: label)
        return text.isEmpty ? "" : "\"\(text)\""
    }

    /// The label's visible text (Text contents), space-separated.
    static func text(of view: GlimpseWidgetV1.View?) -> String {
        guard let view else { return "" }
        switch view.kind {
        case .text(let text)?: return text.content
        case .label(let label)?: return text(of: label.title)
        case .stack(let stack)?:
            return stack.children.map { text(of: $0) }.filter { !$0.isEmpty }.joined(separator: " ")
        default: return ""
        }
    }
}

extension GlimpseWidgetV1.ActivityViews {
    /// Each presentation's view, by the name the asset limits use (`lockScreen`, `expanded`,
    /// `compact`, `minimal`); expanded regions and compact sides as one presentation each.
    var presentations: [(presentation: String, view: GlimpseWidgetV1.View?)] {
        let island = dynamicIsland
        return [
            ("lockScreen", lockScreen),
            ("expanded", island?.expandedLeading?.view), ("expanded", island?.expandedTrailing?.view),
            ("expanded", island?.expandedCenter?.view), ("expanded", island?.expandedBottom?.view),
            ("compact", island?.compactLeading), ("compact", island?.compactTrailing),
            ("minimal", island?.minimal),
        ]
    }
}
