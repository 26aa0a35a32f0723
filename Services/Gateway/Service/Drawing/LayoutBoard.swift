internal import GlimpseMessages

/// Several rendered canvases on one board, left to right with a gap: the whole device
/// (Home Screen, Lock Screen, Dynamic Island) in one picture.
enum LayoutBoard {
    static let gap = 24.0

    static func sideBySide(_ layouts: [GlimpseWidgetV1.Layout], target: String) -> GlimpseWidgetV1.Layout {
        var board = GlimpseWidgetV1.Layout()
        board.target = target
        var root = GlimpseWidgetV1.LayoutNode()
        root.kind = "board"
        var x = 0.0
        var height = 0.0
        for layout in layouts {
            guard var node = layout.root else { continue }
            shift(&node, by: x)
            root.children.append(node)
            x += (layout.size?.width ?? 0) + gap
            height = max(height, layout.size?.height ?? 0)
            board.dark = layout.dark
        }
        let width = max(0, x - gap)
        root.frame = GlimpseWidgetV1.Rect(x: 0, y: 0, width: width, height: height)
        board.size = GlimpseWidgetV1.DisplaySize(width: width, height: height)
        board.root = root
        return board
    }

    private static func shift(_ node: inout GlimpseWidgetV1.LayoutNode, by dx: Double) {
        node.frame?.x += dx
        for index in node.children.indices { shift(&node.children[index], by: dx) }
    }
}
