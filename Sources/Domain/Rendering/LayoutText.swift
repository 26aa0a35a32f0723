internal import GlimpseMessages

/// Reading a laid-out tree back: the text a node shows, for accessibility labels, the SVG's
/// `<title>`s and tests.
enum LayoutText {
    /// The texts of `node` and everything below it, in drawing order, space-separated.
    static func content(of node: GlimpseWidgetV1.LayoutNode) -> String {
        var parts: [String] = []
        collect(node, into: &parts)
        return parts.joined(separator: " ")
    }

    private static func collect(_ node: GlimpseWidgetV1.LayoutNode, into parts: inout [String]) {
        if !node.text.isEmpty && !node.redacted {
            parts.append(node.text.replacingOccurrences(of: "\n", with: " "))
        }
        for child in node.children { collect(child, into: &parts) }
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(count)
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
