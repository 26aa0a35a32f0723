package import GlimpseMessages
internal import GlimpseVocabulary

/// Live Activity presentations (spec §6): the Lock Screen view (width × 84–160, content
/// decides, cut above 160), and the Dynamic Island's compact (leading + camera + trailing),
/// minimal (36.67–45 × 36.67) and expanded (leading and trailing beside the camera, center
/// below it, bottom below all) on the two iPhones that have one. Elsewhere every
/// presentation is the Lock Screen view, shown as a banner.
extension Renderer {
    static let islandHeight = 36.67
    static let cameraWidth = 125.34
    static let islandCornerRadius = 44.0

    var hasDynamicIsland: Bool { environment.device.maximumSize(of: .compact) != nil }

    var lockScreenActivityWidth: Double {
        if let size = environment.device.maximumSize(of: .lockScreen) { return size.width }
        return environment.device == .iPad1024x1366 ? 500 : environment.device.screenSize.width - 22
    }

    /// One Live Activity presentation.
    package func activity(
        _ views: GlimpseWidgetV1.ActivityViews, presentation: ActivityPresentationKind,
        activity: GlimpseActivityV1.Activity? = nil
    ) -> GlimpseWidgetV1.Layout {
        let target = "activity \(activity?.activityId ?? "") \(presentation.rawValue)"
        let node = activityNode(views, presentation: presentation, activity: activity, origin: (0, 0))
        let frame = Rect(node.frame)
        return layout(
            target, size: frame.size, mode: .fullColor, root: node, dark: presentation == .lockScreen ? nil : true)
    }

    /// The presentation's node with its top-left corner at `origin`.
    func activityNode(
        _ views: GlimpseWidgetV1.ActivityViews, presentation: ActivityPresentationKind,
        activity: GlimpseActivityV1.Activity?,
        origin: (Double, Double)
    ) -> GlimpseWidgetV1.LayoutNode {
        let bundle = activity?.bundleId ?? ""
        guard presentation != .lockScreen, hasDynamicIsland else {
            var node = lockScreenActivity(views, bundleID: bundle, origin: origin)
            if presentation != .lockScreen { node.name = "banner" }
            return node
        }
        let island = views.dynamicIsland ?? .init()
        switch presentation {
        case .compact: return compactIsland(island, bundleID: bundle, origin: origin)
        case .minimal: return minimalIsland(island.minimal, bundleID: bundle, origin: origin, name: "minimal")
        default: return expandedIsland(island, bundleID: bundle, origin: origin)
        }
    }

    // MARK: Regions

    /// A view laid out in `rect`, proposed `rect`'s size, placed at `alignment`.
    /// `content`: where inside `rect` the view goes (the region's margins); all of it by default.
    func region(
        _ view: GlimpseWidgetV1.View?, name: String, rect: Rect, bundleID: String, dark: Bool,
        alignment: Alignment2D = .center,
        builder: ViewBuilder? = nil, content: Rect? = nil
    ) -> GlimpseWidgetV1.LayoutNode {
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "region"
        node.name = name
        node.frame = rect.message
        if let view {
            let b = builder ?? makeBuilder(bundleID: bundleID, dark: dark)
            let root = b.build(view)
            let area = content ?? rect
            let proposal = Proposal(area.size)
            node.children = [root.place(area.place(root.measure(proposal), alignment), proposal)]
        }
        node.accessibilityLabel = LayoutText.content(of: node)
        return node
    }

    func makeBuilder(bundleID: String, dark: Bool) -> ViewBuilder {
        ViewBuilder(
            environment: environment, colors: ColorResolver(dark: dark, mode: .fullColor), bundleID: bundleID,
            family: nil, redacted: false)
    }

    private func islandNode(
        _ name: String, _ rect: Rect, children: [GlimpseWidgetV1.LayoutNode], capsule: Bool
    ) -> GlimpseWidgetV1.LayoutNode {
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "island"
        node.name = name
        node.frame = rect.message
        node.fill = ColorResolver.RGBA(0, 0, 0).paint
        node.clipShape = GlimpseWidgetV1.Shape(
            kind: capsule ? .capsule : .roundedRectangle, cornerRadius: capsule ? 0 : Self.islandCornerRadius)
        node.children = children
        node.accessibilityLabel = LayoutText.content(of: node)
        return node
    }

    func camera(_ x: Double, _ y: Double) -> GlimpseWidgetV1.LayoutNode {
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "region"
        node.name = "camera"
        node.frame = Rect(x: x, y: y, width: Self.cameraWidth, height: Self.islandHeight).message
        return node
    }

    /// Compact content hugs the island's outer ends, inset from the rounded edge, and
    /// centers vertically: the leading view starts at the leading margin, the trailing view
    /// ends at the trailing one (the camera side stays free).
    static let compactOuterMargin = 6.0

    func compactIsland(
        _ island: GlimpseWidgetV1.DynamicIslandViews, bundleID: String, origin: (Double, Double)
    ) -> GlimpseWidgetV1.LayoutNode {
        let side = environment.device.maximumSize(of: .compact)?.width ?? 52.33
        let (x, y) = origin
        let h = Self.islandHeight
        let m = Self.compactOuterMargin
        let leadRect = Rect(x: x, y: y, width: side, height: h)
        let trailRect = Rect(x: x + side + Self.cameraWidth, y: y, width: side, height: h)
        let lead = region(
            island.compactLeading, name: "compactLeading", rect: leadRect, bundleID: bundleID, dark: true,
            alignment: Alignment2D(horizontal: .leading, vertical: .center),
            content: leadRect.inset(top: 0, leading: m, bottom: 0, trailing: 0))
        let trail = region(
            island.compactTrailing, name: "compactTrailing", rect: trailRect, bundleID: bundleID, dark: true,
            alignment: Alignment2D(horizontal: .trailing, vertical: .center),
            content: trailRect.inset(top: 0, leading: 0, bottom: 0, trailing: m))
        var node = islandNode(
            "compact", Rect(x: x, y: y, width: 2 * side + Self.cameraWidth, height: h),
            children: [lead, camera(x + side, y), trail], capsule: true)
        node.url = island.widgetUrl
        return node
    }

    /// Minimal: its width is the content's, between 36.67 and 45.
    func minimalIsland(
        _ view: GlimpseWidgetV1.View?, bundleID: String, origin: (Double, Double), name: String
    ) -> GlimpseWidgetV1.LayoutNode {
        let width = minimalWidth(view, bundleID: bundleID)
        let rect = Rect(x: origin.0, y: origin.1, width: width, height: Self.islandHeight)
        let r = region(view, name: "minimal", rect: rect, bundleID: bundleID, dark: true)
        return islandNode(name, rect, children: [r], capsule: true)
    }

    func minimalWidth(_ view: GlimpseWidgetV1.View?, bundleID: String) -> Double {
        let maxWidth = environment.device.maximumSize(of: .minimal)?.width ?? 45
        guard let view else { return Self.islandHeight }
        let size = makeBuilder(bundleID: bundleID, dark: true).build(view).measure(
            Proposal(width: maxWidth, height: Self.islandHeight))
        return min(maxWidth, max(Self.islandHeight, size.width))
    }
}
