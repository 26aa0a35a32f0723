package import GlimpseMessages
package import RPCCore
import GlimpseRPC

/// The tappable views of an entry's view tree (Button, Toggle, Link), each with a stable
/// address: its path of child indices from the root (`"0"` is the root, `"0.2"` its third
/// child) and the `.id` the app gave it.
package enum Elements {
    /// Every Button, Toggle and Link in `view`, in reading order (depth first).
    package static func collect(_ view: GlimpseWidgetV1.View?) -> [GlimpseGatewayV1.Element] {
        guard let view else { return [] }
        var found: [GlimpseGatewayV1.Element] = []
        visit(view, path: "0", into: &found)
        return found
    }

    private static func visit(_ view: GlimpseWidgetV1.View, path: String, into found: inout [GlimpseGatewayV1.Element])
    {
        var element = GlimpseGatewayV1.Element()
        element.path = path
        element.id = view.id
        switch view.kind {
        case .button(let button)?:
            element.kind = .button(button.intent ?? .init())
            element.label = text(of: button.label)
            found.append(element)
        case .toggle(let toggle)?:
            element.kind = .toggle(toggle.intent ?? .init())
            element.label = text(of: toggle.label)
            element.isOn = toggle.isOn
            found.append(element)
        case .link(let link)?:
            element.kind = .link(link.destination)
            element.label = text(of: link.label)
            found.append(element)
        case .stack(let stack)?:
            for (index, child) in stack.children.enumerated() {
                visit(child, path: "\(path).\(index)", into: &found)
            }
        default:
            break
        }
    }

    /// The visible text of a view: its Text contents and Label titles, space-separated.
    package static func text(of view: GlimpseWidgetV1.View?) -> String {
        guard let view else { return "" }
        var parts: [String] = []
        collectText(view, into: &parts)
        return parts.joined(separator: " ")
    }

    private static func collectText(_ view: GlimpseWidgetV1.View, into parts: inout [String]) {
        switch view.kind {
        case .text(let text)?: if !text.content.isEmpty { parts.append(text.content) }
        case .label(let label)?: collectText(label.title ?? .init(), into: &parts)
        case .stack(let stack)?: for child in stack.children { collectText(child, into: &parts) }
        case .button(let button)?: collectText(button.label ?? .init(), into: &parts)
        case .toggle(let toggle)?: collectText(toggle.label ?? .init(), into: &parts)
        case .link(let link)?: collectText(link.label ?? .init(), into: &parts)
        default: break
        }
    }

    /// What a tap on `name` reaches in `elements`: the element whose id, path, intent type,
    /// label (case-insensitive) or link destination is `name`, in that order of precedence.
    /// An empty name is the only element, or nil (the widget itself) when there is none or
    /// the entry has a widgetURL.
    package static func resolve(
        _ name: String, in elements: [GlimpseGatewayV1.Element], hasWidgetURL: Bool
    ) throws(RPCError) -> GlimpseGatewayV1.Element? {
        if name.isEmpty {
            if hasWidgetURL || elements.isEmpty { return nil }
            if elements.count == 1 { return elements[0] }
            throw RPCError(
                code: .invalidArgument,
                message: "the widget shows \(elements.count) elements; name one of: \(listing(elements))")
        }
        let rules: [(GlimpseGatewayV1.Element) -> Bool] = [
            { $0.id == name },
            { $0.path == name },
            { intentType(of: $0) == name },
            { $0.label.lowercased() == name.lowercased() },
            { if case .link(let url)? = $0.kind { url == name } else { false } },
        ]
        for rule in rules {
            let matches = elements.filter(rule)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw RPCError(
                    code: .invalidArgument,
                    message: "\"\(name)\" names \(matches.count) elements (\(listing(matches))); use a path or an id")
            }
        }
        let available =
            elements.isEmpty ? "the entry shows no Button, Toggle or Link" : "available: \(listing(elements))"
        // Typed, so a script tells "not on the screen now" from a missing placement.
        throw RPCError(
            code: .notFound, message: "no element \"\(name)\" in the current entry; \(available)",
            reason: GlimpseIntentV1.Refusal.noSuchElement, metadata: ["element": name])
    }

    package static func intentType(of element: GlimpseGatewayV1.Element) -> String? {
        switch element.kind {
        case .button(let intent)?, .toggle(let intent)?: intent.intentType
        default: nil
        }
    }

    static func listing(_ elements: [GlimpseGatewayV1.Element]) -> String {
        elements.map { element in
            let name = element.id.isEmpty ? element.path : "\(element.id) (\(element.path))"
            let what =
                switch element.kind {
                case .button(let intent)?: "Button \(intent.intentType)"
                case .toggle(let intent)?: "Toggle \(intent.intentType)"
                case .link(let url)?: "Link \(url)"
                case nil: "view"
                }
            return element.label.isEmpty ? "\(name) \(what)" : "\(name) \(what) \"\(element.label)\""
        }.joined(separator: ", ")
    }
}
