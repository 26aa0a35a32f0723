internal import GlimpseMessages
internal import GlimpseVocabulary

/// The expanded Dynamic Island and the Lock Screen view.
extension Renderer {
    /// Side margins inside the expanded island (its 44-pt corners cut closer content).
    static let expandedMargin = 20.0
    static let expandedGap = 4.0

    func expandedIsland(
        _ island: GlimpseWidgetV1.DynamicIslandViews, bundleID: String, origin: (Double, Double)
    ) -> GlimpseWidgetV1.LayoutNode {
        let width = environment.device.maximumSize(of: .expanded)?.width ?? 371
        let (x0, y0) = origin
        let m = Self.expandedMargin, gap = Self.expandedGap
        let sideWidth = (width - Self.cameraWidth) / 2 - m - gap
        let topY = y0 + 10
        let belowCamera = y0 + Self.islandHeight + gap
        var children: [GlimpseWidgetV1.LayoutNode] = [camera(x0 + (width - Self.cameraWidth) / 2, y0)]
        var bottoms: [Double] = [y0 + Self.islandHeight]
        let builder = makeBuilder(bundleID: bundleID, dark: true)

        func measure(_ view: GlimpseWidgetV1.View, _ proposal: Proposal) -> Size {
            builder.build(view).measure(proposal)
        }

        // Leading and trailing beside the camera; belowIfTooWide moves one that does not fit below it.
        var sides: [(name: String, rect: Rect, view: GlimpseWidgetV1.View, align: HAlign)] = []
        var movedBelow: [(String, GlimpseWidgetV1.ExpandedRegion)] = []
        let topPriority = max(island.expandedLeading?.priority ?? 0, island.expandedTrailing?.priority ?? 0)
        for (name, region, leading) in [
            ("expandedLeading", island.expandedLeading, true), ("expandedTrailing", island.expandedTrailing, false),
        ] {
            guard let region, let view = region.view else { continue }
            if region.belowIfTooWide && measure(view, .unspecified).width > sideWidth {
                movedBelow.append((name, region))
                continue
            }
            let size = measure(view, Proposal(width: sideWidth, height: 160 - 10))
            let x = leading ? x0 + m : x0 + width - m - sideWidth
            sides.append(
                (
                    name, Rect(x: x, y: topY, width: sideWidth, height: max(size.height, Self.islandHeight - 10)), view,
                    leading ? .leading : .trailing
                ))
        }
        for side in sides {
            children.append(
                region(
                    side.view, name: side.name, rect: side.rect, bundleID: bundleID, dark: true,
                    alignment: Alignment2D(horizontal: side.align, vertical: .top), builder: builder))
            bottoms.append(side.rect.maxY)
        }

        // Center below the camera, between the sides where they reach down; with the highest
        // priority it takes the full width below them.
        var y = belowCamera
        if let center = island.expandedCenter, let view = center.view {
            var left = x0 + m, right = x0 + width - m
            if center.priority > topPriority {
                y = max(y, (bottoms.max() ?? y) + gap)
            } else {
                for side in sides where side.rect.maxY > y {
                    if side.align == .leading { left = side.rect.maxX + gap } else { right = side.rect.x - gap }
                }
            }
            let size = measure(view, Proposal(width: right - left, height: nil))
            let rect = Rect(x: left, y: y, width: right - left, height: size.height)
            children.append(
                region(view, name: "expandedCenter", rect: rect, bundleID: bundleID, dark: true, builder: builder))
            bottoms.append(rect.maxY)
        }
        var below = (bottoms.max() ?? belowCamera) + gap
        for (name, region) in movedBelow {
            guard let view = region.view else { continue }
            let size = measure(view, Proposal(width: width - 2 * m, height: nil))
            let rect = Rect(x: x0 + m, y: below, width: width - 2 * m, height: size.height)
            children.append(
                self.region(
                    view, name: name, rect: rect, bundleID: bundleID, dark: true,
                    alignment: Alignment2D(horizontal: .leading, vertical: .top), builder: builder))
            below = rect.maxY + gap
        }
        if let bottom = island.expandedBottom, let view = bottom.view {
            let size = measure(view, Proposal(width: width - 2 * m, height: nil))
            let rect = Rect(x: x0 + m, y: below, width: width - 2 * m, height: size.height)
            children.append(
                region(view, name: "expandedBottom", rect: rect, bundleID: bundleID, dark: true, builder: builder))
            below = rect.maxY + gap
        }
        let contentHeight = below - y0 + 10
        let height = min(160, max(84, contentHeight))
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "island"
        node.name = "expanded"
        node.frame = Rect(x: x0, y: y0, width: width, height: height).message
        node.fill = ColorResolver.RGBA(0, 0, 0).paint
        node.clipShape = GlimpseWidgetV1.Shape(kind: .roundedRectangle, cornerRadius: Self.islandCornerRadius)
        if let keyline = island.keylineTint {
            node.foreground = ColorResolver(dark: true, mode: .fullColor).color(keyline, tint: nil).paint
        }
        node.truncated = contentHeight > 160
        node.url = island.widgetUrl
        node.children = children
        node.accessibilityLabel = LayoutText.content(of: node)
        return node
    }

    /// The Lock Screen view: the width of the presentation, 84–160 high as the content asks,
    /// on its `activityBackgroundTint` (else the system's material).
    func lockScreenActivity(
        _ views: GlimpseWidgetV1.ActivityViews, bundleID: String, origin: (Double, Double)
    ) -> GlimpseWidgetV1.LayoutNode {
        let width = lockScreenActivityWidth
        let builder = makeBuilder(bundleID: bundleID, dark: environment.isDark)
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "activity"
        node.name = "lockScreen"
        node.url = views.widgetUrl
        node.clipShape = GlimpseWidgetV1.Shape(kind: .roundedRectangle, cornerRadius: 22)
        var height = 84.0
        if let view = views.lockScreen {
            let root = builder.build(view)
            let ideal = root.measure(Proposal(width: width, height: nil))
            height = min(160, max(84, ideal.height))
            node.truncated = ideal.height > 160
            let proposal = Proposal(width: width, height: height)
            let rect = Rect(x: origin.0, y: origin.1, width: width, height: height)
            node.children = [root.place(rect.place(root.measure(proposal), .center), proposal)]
        }
        node.frame = Rect(x: origin.0, y: origin.1, width: width, height: height).message
        if let tint = builder.activityBackgroundTint {
            node.fill = builder.paint(tint, ViewEnvironment()).message
        } else {
            node.fill =
                (environment.isDark
                ? ColorResolver.RGBA(0.11, 0.11, 0.12, 0.92) : ColorResolver.RGBA(0.96, 0.96, 0.97, 0.92)).paint
        }
        node.accessibilityLabel = LayoutText.content(of: node)
        return node
    }
}
