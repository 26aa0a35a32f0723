internal import GlimpseMessages

/// One element of the layout tree, in SwiftUI's proposal model: a parent proposes a size,
/// the element answers the size it wants (`measure`), the parent places it (`place`) at a
/// rectangle of that size, passing the same proposal again.
///
/// Nodes are built for one render and thrown away; `measure` remembers its last few answers
/// so a stack probing its children (flexibility at 0 and ∞, then the real share) asks each
/// child's subtree once per distinct proposal.
class Node {
    /// The view's address and `.id`, stamped on the node that draws the view itself.
    var path = ""
    var id = ""
    private var cache: [(Proposal, Size)] = []

    final func measure(_ proposal: Proposal) -> Size {
        for (p, s) in cache where p == proposal { return s }
        let size = sizeThatFits(proposal)
        if cache.count >= 8 { cache.removeFirst() }
        cache.append((proposal, size))
        return size
    }

    /// How much the node can grow along `axis` beyond its smallest size: stacks give their
    /// space to the least flexible children first.
    final func flexibility(_ axis: Axis, cross: Double?) -> Double {
        var small = Proposal(width: nil, height: nil)
        small[axis] = 0
        small[axis.other] = cross
        var large = small
        large[axis] = .infinity
        let d = measure(large)[axis] - measure(small)[axis]
        return d.isNaN ? .infinity : d
    }

    func sizeThatFits(_ proposal: Proposal) -> Size { .zero }

    func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        makeNode("view", rect)
    }

    /// Spacers change the default spacing next to them (none) and fill along a stack.
    var isSpacer: Bool { false }

    final func makeNode(_ kind: String, _ rect: Rect) -> GlimpseWidgetV1.LayoutNode {
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = kind
        node.frame = rect.message
        node.path = path
        node.id = id
        return node
    }
}

/// A node that fills what it is offered: shapes, colors, gradients, the accessory
/// background. Ideal size 10×10 as SwiftUI's shapes.
final class FillNode: Node {
    let kind: String
    let configure: (inout GlimpseWidgetV1.LayoutNode) -> Void
    let ideal: Size

    init(
        kind: String, ideal: Size = Size(width: 10, height: 10),
        configure: @escaping (inout GlimpseWidgetV1.LayoutNode) -> Void
    ) {
        self.kind = kind
        self.ideal = ideal
        self.configure = configure
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size { proposal.replacingUnspecified(with: ideal) }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = makeNode(kind, rect)
        configure(&node)
        return node
    }
}

/// A fixed-size leaf (a switch, a missing image's box, a symbol's square).
final class FixedNode: Node {
    let kind: String
    let size: Size
    let configure: (inout GlimpseWidgetV1.LayoutNode) -> Void

    init(kind: String, size: Size, configure: @escaping (inout GlimpseWidgetV1.LayoutNode) -> Void) {
        self.kind = kind
        self.size = size
        self.configure = configure
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size { size }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = makeNode(kind, rect)
        configure(&node)
        return node
    }
}

/// Spacer: flexible along its stack's axis from `minLength`, nothing across; outside a
/// stack it fills both ways.
final class SpacerNode: Node {
    let axis: Axis?
    let minLength: Double

    init(axis: Axis?, minLength: Double) {
        self.axis = axis
        self.minLength = minLength
    }

    override var isSpacer: Bool { true }

    override func sizeThatFits(_ proposal: Proposal) -> Size {
        guard let axis else { return proposal.replacingUnspecified(with: Size(width: minLength, height: minLength)) }
        var size = Size.zero
        size[axis] = max(minLength, proposal[axis] ?? minLength)
        return size
    }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode { makeNode("spacer", rect) }
}

/// Divider: a hairline across its stack's axis, filling the other way.
final class DividerNode: Node {
    let stackAxis: Axis?
    let paint: Paint

    init(stackAxis: Axis?, paint: Paint) {
        self.stackAxis = stackAxis
        self.paint = paint
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size {
        if stackAxis == .horizontal {
            return Size(width: 1, height: Self.finite(proposal.height) ?? 0)
        }
        return Size(width: Self.finite(proposal.width) ?? 0, height: 1)
    }

    private static func finite(_ v: Double?) -> Double? { v.flatMap { $0.isFinite ? $0 : nil } }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = makeNode("divider", rect)
        node.fill = paint.message
        return node
    }
}
