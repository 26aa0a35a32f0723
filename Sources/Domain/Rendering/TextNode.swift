internal import GlimpseMessages

/// Text, timers and dates: wrapped to the proposed width, cut to `lineLimit` and to the
/// lines the proposed height holds, shrunk by up to `minimumScaleFactor` before "…".
///
/// Timer texts (and the `.timer` date style) take the whole proposed width, as SwiftUI's do,
/// and never less than their one line: a ticking "30:00" is not wrapped.
final class TextNode: Node {
    let kind: String
    let prepared: PreparedText
    let lineLimit: Int?
    let minimumScaleFactor: Double
    let alignment: GlimpseWidgetV1.TextAlignment
    let fillsWidth: Bool
    let foreground: Paint
    let redacted: Bool
    let configure: ((inout GlimpseWidgetV1.LayoutNode) -> Void)?

    init(
        kind: String, text: String, font: FontSpec, lineLimit: Int?, minimumScaleFactor: Double,
        alignment: GlimpseWidgetV1.TextAlignment, fillsWidth: Bool, foreground: Paint, redacted: Bool,
        configure: ((inout GlimpseWidgetV1.LayoutNode) -> Void)? = nil
    ) {
        self.kind = kind
        self.prepared = PreparedText(text, font: font)
        self.lineLimit = lineLimit
        self.minimumScaleFactor = minimumScaleFactor
        self.alignment = alignment
        self.fillsWidth = fillsWidth
        self.foreground = foreground
        self.redacted = redacted
        self.configure = configure
    }

    func lines(_ proposal: Proposal) -> PreparedText.Lines {
        let attempt = fit(proposal, scale: 1)
        guard attempt.truncated, minimumScaleFactor < 1 else { return attempt }
        // Shrink in 2% steps before truncating; the smallest allowed size may still truncate.
        var scale = 0.98
        while scale > minimumScaleFactor {
            let smaller = fit(proposal, scale: scale)
            if !smaller.truncated { return smaller }
            scale -= 0.02
        }
        return fit(proposal, scale: max(minimumScaleFactor, 0.01))
    }

    private func fit(_ proposal: Proposal, scale: Double) -> PreparedText.Lines {
        if fillsWidth { return prepared.layout(maxWidth: nil, maxLines: 1, scale: scale) }
        var maxLines = lineLimit
        if let height = proposal.height, height.isFinite {
            // A height of 1e300 points fits every line there is; Int could not hold the count.
            let lines = ((height + 0.01) / (prepared.font.lineHeight * scale)).rounded(.down)
            let fitting = lines.isFinite ? Int(min(max(lines, 1), 1_000_000)) : 1
            maxLines = min(maxLines ?? fitting, fitting)
        }
        return prepared.layout(maxWidth: proposal.width, maxLines: maxLines, scale: scale)
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size {
        let laid = lines(proposal)
        var width = laid.width
        if fillsWidth, let w = proposal.width, w.isFinite { width = max(w, laid.width) }
        return Size(width: width, height: laid.height)
    }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        let laid = lines(proposal)
        var node = makeNode(kind, rect)
        node.text = laid.lines.joined(separator: "\n")
        node.truncated = laid.truncated
        node.fontSize = laid.font.size
        node.fontWeight = laid.font.weight
        node.fontDesign = laid.font.design
        node.textAlignment = alignment
        node.lineCount = Int32(laid.lines.count)
        node.foreground = foreground.message
        node.redacted = redacted
        configure?(&node)
        return node
    }
}
