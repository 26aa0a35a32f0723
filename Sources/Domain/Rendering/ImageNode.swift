internal import GlimpseMessages

/// An app image: natural size = pixels / device scale; `resizable` fills the proposal,
/// `.fit` / `.fill` keep the aspect ratio (fill may overflow the proposal, as in SwiftUI).
/// A missing asset is a labelled box: natural 40×40, or filling like the image would.
final class ImageNode: Node {
    let assetName: String
    let natural: Size
    let missing: Bool
    let resizable: Bool
    let contentMode: GlimpseWidgetV1.ContentMode
    let configure: (inout GlimpseWidgetV1.LayoutNode) -> Void

    init(
        assetName: String, natural: Size?, resizable: Bool, contentMode: GlimpseWidgetV1.ContentMode,
        configure: @escaping (inout GlimpseWidgetV1.LayoutNode) -> Void
    ) {
        self.assetName = assetName
        self.natural = natural ?? Size(width: 40, height: 40)
        self.missing = natural == nil
        self.resizable = resizable
        self.contentMode = contentMode
        self.configure = configure
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size {
        guard resizable else { return natural }
        let w = proposal.width.flatMap { $0.isFinite ? $0 : nil }
        let h = proposal.height.flatMap { $0.isFinite ? $0 : nil }
        switch contentMode {
        case .fit, .fill:
            guard natural.width > 0, natural.height > 0 else { return .zero }
            let sx = w.map { $0 / natural.width }
            let sy = h.map { $0 / natural.height }
            let s: Double
            switch (sx, sy) {
            case (let a?, let b?): s = contentMode == .fit ? min(a, b) : max(a, b)
            case (let a?, nil): s = a
            case (nil, let b?): s = b
            case (nil, nil):
                // Infinite both ways: as large as offered is unbounded; keep the natural size.
                s = 1
            }
            return Size(width: natural.width * s, height: natural.height * s)
        default:
            return Size(width: w ?? natural.width, height: h ?? natural.height)
        }
    }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = makeNode("image", rect)
        node.assetName = assetName
        if missing { node.accessibilityLabel = "missing image \(AssetKey(nodeName: assetName).name)" }
        configure(&node)
        return node
    }
}
