internal import GlimpseMessages

/// `.padding`: the proposal shrinks by the insets, the answer grows by them.
final class PaddingNode: Node {
    let child: Node
    let top, leading, bottom, trailing: Double

    init(_ child: Node, top: Double, leading: Double, bottom: Double, trailing: Double) {
        self.child = child
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    private func inner(_ p: Proposal) -> Proposal {
        Proposal(
            width: p.width.map { max(0, $0 - leading - trailing) }, height: p.height.map { max(0, $0 - top - bottom) })
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size {
        let s = child.measure(inner(proposal))
        return Size(width: s.width + leading + trailing, height: s.height + top + bottom)
    }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        child.place(rect.inset(top: top, leading: leading, bottom: bottom, trailing: trailing), inner(proposal))
    }
}

/// `.frame(width:height:)` and `.frame(minWidth:maxWidth:…)`, SwiftUI's fixed and flexible
/// frames; the child sits in the frame at `alignment`.
final class FrameNode: Node {
    let child: Node
    let frame: GlimpseWidgetV1.Frame
    let alignment: Alignment2D

    init(_ child: Node, _ frame: GlimpseWidgetV1.Frame) {
        self.child = child
        self.frame = frame
        self.alignment = Alignment2D(frame.alignment)
    }

    private func axisValues(_ axis: Axis) -> (fixed: Double?, min: Double?, max: Double?) {
        axis == .horizontal
            ? (frame.width, frame.minWidth, frame.maxWidth) : (frame.height, frame.minHeight, frame.maxHeight)
    }

    private func childProposal(_ proposal: Proposal) -> Proposal {
        var p = proposal
        for axis in [Axis.horizontal, .vertical] {
            let (fixed, lo, hi) = axisValues(axis)
            if let fixed {
                p[axis] = fixed
                continue
            }
            if var v = p[axis] {
                if let lo { v = max(lo, v) }
                if let hi { v = min(hi, v) }
                p[axis] = v
            }
        }
        return p
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size {
        let childSize = child.measure(childProposal(proposal))
        var result = childSize
        for axis in [Axis.horizontal, .vertical] {
            let (fixed, lo, hi) = axisValues(axis)
            if let fixed {
                result[axis] = fixed
                continue
            }
            let offered = proposal[axis] ?? childSize[axis]
            var v = childSize[axis]
            if let lo { v = max(lo, min(v, offered)) }
            if let hi { v = min(hi, max(v, offered)) }
            result[axis] = v
        }
        return result
    }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        let p = childProposal(proposal)
        let size = child.measure(p)
        return child.place(rect.place(size, alignment), p)
    }
}

/// `.background(style)` (and a bordered button's chrome): a fill behind the child at the
/// child's frame; the node holds the child.
final class BackgroundNode: Node {
    let child: Node
    let paint: Paint
    let shape: GlimpseWidgetV1.Shape?
    let kind: String

    init(_ child: Node, paint: Paint, shape: GlimpseWidgetV1.Shape?, kind: String = "background") {
        self.child = child
        self.paint = paint
        self.shape = shape
        self.kind = kind
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size { child.measure(proposal) }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = makeNode(kind, rect)
        node.fill = paint.message
        node.clipShape = shape
        node.children = [child.place(rect, proposal)]
        return node
    }
}

/// Drawing-only modifiers: opacity, clip shape, scale effect, dimming, accessibility label.
/// They change how the child's node is drawn, never its size.
final class EffectNode: Node {
    let child: Node
    let apply: (inout GlimpseWidgetV1.LayoutNode, Rect) -> Void

    init(_ child: Node, apply: @escaping (inout GlimpseWidgetV1.LayoutNode) -> Void) {
        self.child = child
        self.apply = { node, _ in apply(&node) }
    }

    /// An effect that needs the bounds the modified view was placed in.
    init(_ child: Node, applyIn: @escaping (inout GlimpseWidgetV1.LayoutNode, Rect) -> Void) {
        self.child = child
        self.apply = applyIn
    }

    override var isSpacer: Bool { child.isSpacer }
    override func sizeThatFits(_ proposal: Proposal) -> Size { child.measure(proposal) }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = child.place(rect, proposal)
        apply(&node, rect)
        return node
    }

    /// `.clipShape` clips to the modified view's bounds — a `.frame` smaller than an image
    /// scaled to fill cuts the overflow — so a node drawn elsewhere than those bounds, or
    /// already clipped, gets a "clip" group at them.
    static func clip(_ shape: GlimpseWidgetV1.Shape) -> (inout GlimpseWidgetV1.LayoutNode, Rect) -> Void {
        { node, bounds in
            if node.clipShape == nil, Rect(node.frame).isNear(bounds) {
                node.clipShape = shape
            } else {
                var group = GlimpseWidgetV1.LayoutNode()
                group.kind = "clip"
                group.frame = bounds.message
                group.clipShape = shape
                group.children = [node]
                node = group
            }
        }
    }

    /// `.scaleEffect`: the drawn subtree scales about its center; layout is untouched.
    static func scale(_ sx: Double, _ sy: Double) -> (inout GlimpseWidgetV1.LayoutNode) -> Void {
        { node in
            let f = Rect(node.frame)
            scaleTree(&node, cx: f.midX, cy: f.midY, sx: sx, sy: sy)
        }
    }

    private static func scaleTree(
        _ node: inout GlimpseWidgetV1.LayoutNode, cx: Double, cy: Double, sx: Double, sy: Double
    ) {
        let f = Rect(node.frame)
        node.frame =
            Rect(x: cx + (f.x - cx) * sx, y: cy + (f.y - cy) * sy, width: f.width * sx, height: f.height * sy).message
        if node.fontSize > 0 { node.fontSize *= min(sx, sy) }
        for i in node.children.indices { scaleTree(&node.children[i], cx: cx, cy: cy, sx: sx, sy: sy) }
    }
}

/// A view built from other views (gauge, progress, label, button, toggle, link): the
/// composition lays out; the node names the view and holds the composition's node.
final class KindNode: Node {
    let kind: String
    let inner: Node
    let configure: (inout GlimpseWidgetV1.LayoutNode) -> Void

    init(kind: String, inner: Node, configure: @escaping (inout GlimpseWidgetV1.LayoutNode) -> Void = { _ in }) {
        self.kind = kind
        self.inner = inner
        self.configure = configure
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size { inner.measure(proposal) }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = makeNode(kind, rect)
        node.children = [inner.place(rect, proposal)]
        configure(&node)
        return node
    }
}
