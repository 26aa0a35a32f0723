internal import GlimpseMessages

/// VStack, HStack and ZStack.
///
/// H/VStack: the space left after spacing (and the spacers' minimum lengths) is shared out
/// to the children in order of flexibility (least flexible first); each is offered an equal
/// part of what remains and what it takes is subtracted; spacers then share what is left. Default spacing is 8, none next to a Spacer. Children are
/// aligned across the axis. ZStack offers every child its whole proposal and takes the
/// union, placing each at the alignment.
final class StackNode: Node {
    let axis: Axis?
    let spacing: Double?
    let alignment: Alignment2D
    let children: [Node]

    init(axis: Axis?, spacing: Double?, alignment: Alignment2D, children: [Node]) {
        self.axis = axis
        self.spacing = spacing
        self.alignment = alignment
        self.children = children
    }

    private var gaps: [Double] {
        guard children.count > 1 else { return [] }
        return (1..<children.count).map { i in
            if let spacing { return spacing }
            return children[i - 1].isSpacer || children[i].isSpacer ? 0 : 8
        }
    }

    /// The size each child takes for `proposal`.
    private func allocate(_ proposal: Proposal, axis: Axis) -> [(size: Size, proposal: Proposal)] {
        let cross = proposal[axis.other]
        guard let total = proposal[axis] else {
            return children.map { child in
                var p = Proposal.unspecified
                p[axis.other] = cross
                return (child.measure(p), p)
            }
        }
        var sizes = [(size: Size, proposal: Proposal)](repeating: (.zero, .unspecified), count: children.count)
        // Spacers take what the others leave: their minimum is held back for them first.
        let spacers = children.indices.filter { children[$0].isSpacer }
        let others = children.indices.filter { !children[$0].isSpacer }
        let reserved = spacers.reduce(0.0) { sum, i in
            var p = Proposal.unspecified
            p[axis] = 0
            p[axis.other] = cross
            return sum + children[i].measure(p)[axis]
        }
        var remaining = total - gaps.reduce(0, +) - reserved
        let order = others.map { ($0, children[$0].flexibility(axis, cross: cross)) }
            .sorted { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 < $1.1 }
        for (group, extra) in [(order.map(\.0), 0.0), (spacers, reserved)] {
            remaining += extra
            var left = Double(group.count)
            for index in group {
                var p = Proposal.unspecified
                p[axis] = max(0, remaining / left)
                p[axis.other] = cross
                let size = children[index].measure(p)
                sizes[index] = (size, p)
                remaining -= size[axis]
                left -= 1
            }
        }
        return sizes
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size {
        guard let axis else {
            return children.map { $0.measure(proposal) }.reduce(Size.zero) {
                Size(width: max($0.width, $1.width), height: max($0.height, $1.height))
            }
        }
        let sizes = allocate(proposal, axis: axis).map(\.size)
        var result = Size.zero
        result[axis] = sizes.reduce(0) { $0 + $1[axis] } + gaps.reduce(0, +)
        result[axis.other] = sizes.reduce(0) { max($0, $1[axis.other]) }
        return result
    }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = makeNode(axis == nil ? "zstack" : (axis == .horizontal ? "hstack" : "vstack"), rect)
        guard let axis else {
            node.children = children.map { child in
                let size = child.measure(proposal)
                return child.place(rect.place(size, alignment), proposal)
            }
            return node
        }
        let sizes = allocate(proposal, axis: axis)
        let gaps = self.gaps
        var offset = 0.0
        for (i, child) in children.enumerated() {
            let (size, childProposal) = sizes[i]
            var frame: Rect
            if axis == .horizontal {
                frame = rect.place(size, Alignment2D(horizontal: .leading, vertical: alignment.vertical))
                frame.x = rect.x + offset
            } else {
                frame = rect.place(size, Alignment2D(horizontal: alignment.horizontal, vertical: .top))
                frame.y = rect.y + offset
            }
            offset += size[axis] + (i < gaps.count ? gaps[i] : 0)
            node.children.append(child.place(frame, childProposal))
        }
        return node
    }
}
