package import GlimpseMessages
internal import GlimpseVocabulary

/// The Lock Screen (the inline accessory above a big clock, up to four accessory slots
/// below it, then the Live Activities, most relevant first) and the Dynamic Island strip at
/// the top of the screen in the mode the gateway chose.
extension Renderer {
    /// What stays clear at the bottom of the Lock Screen: the flashlight and camera buttons
    /// and the home indicator, under the notifications and Live Activities.
    static let lockScreenBottomInset = 110.0

    /// Moves a laid-out tree down by `dy` (frames are the only absolute coordinates).
    static func moveDown(_ node: inout GlimpseWidgetV1.LayoutNode, by dy: Double) {
        node.frame?.y += dy
        for i in node.children.indices { moveDown(&node.children[i], by: dy) }
    }

    package func lockScreen(
        _ screen: GlimpseGatewayV1.Screen, views: [String: GlimpseWidgetV1.ActivityViews]
    ) -> GlimpseWidgetV1.Layout {
        let size = Size(width: environment.device.screenSize.width, height: environment.device.screenSize.height)
        var root = screenNode("lockScreen", size: size)
        let widgets = screen.lockScreen?.widgets ?? []
        let white = ColorResolver.RGBA(1, 1, 1)
        let clock = Clock(now: environment.now, timeZone: environment.timeZone)

        // The date line: the date, followed by the inline accessory when there is one (iOS
        // keeps the date and shows the widget after it, the two centred together).
        var y = statusBarHeight + 8
        let dateFont = FontSpec(
            size: 20, weight: .semibold, design: .default, monospacedDigit: false, leadingRatio: 25.0 / 20)
        let date = clock.weekdayDate(environment.now)
        if let inline = widgets.first(where: { Self.family($0.family) == .accessoryInline }) {
            let s = widgetSize(.accessoryInline)
            let dateWidth = dateFont.width(of: date)
            let gap = 6.0
            // The inline widget's own width is its family's; the pair is centred, and the
            // widget keeps to the screen (a long date pushes it right, never off the edge).
            let x0 = max(8, (size.width - dateWidth - gap - s.width) / 2)
            let widgetX = min(x0 + dateWidth + gap, size.width - 8 - s.width)
            let line = max(dateFont.lineHeight, s.height)
            root.children.append(
                systemText(
                    date, font: dateFont, centerX: x0 + dateWidth / 2, y: y + (line - dateFont.lineHeight) / 2,
                    color: white, name: "date"))
            root.children.append(
                widgetNode(
                    inline, mode: .vibrant,
                    at: Rect(x: widgetX, y: y + (line - s.height) / 2, width: s.width, height: s.height), dark: true))
            y += line
        } else {
            root.children.append(
                systemText(date, font: dateFont, centerX: size.width / 2, y: y, color: white, name: "date"))
            y += dateFont.lineHeight
        }
        // The default Lock Screen clock is SF Pro, not the rounded face (that is one of the
        // alternatives the user may pick), in a heavy semibold with tabular digits.
        let clockFont = FontSpec(
            size: 88, weight: .semibold, design: .default, monospacedDigit: true, leadingRatio: 1.1)
        root.children.append(
            systemText(
                clock.clock(environment.now), font: clockFont, centerX: size.width / 2, y: y, color: white,
                name: "clock"))
        y += clockFont.lineHeight + 6

        // Accessory slots: circular takes one of four, rectangular two.
        let slotWidth = widgetSize(.accessoryCircular).width
        let slotGap = widgetSize(.accessoryRectangular).width - 2 * slotWidth
        var placed: [(GlimpseGatewayV1.Widget, Size)] = []
        var used = 0
        for widget in widgets where Self.family(widget.family) != .accessoryInline {
            let family = Self.family(widget.family)
            let slots = family == .accessoryCircular ? 1 : 2
            guard used + slots <= 4 else { break }
            used += slots
            placed.append((widget, widgetSize(family)))
        }
        if !placed.isEmpty {
            let total = placed.reduce(0) { $0 + $1.1.width } + Double(placed.count - 1) * slotGap
            var x = (size.width - total) / 2
            var rowHeight = 0.0
            for (widget, s) in placed {
                root.children.append(
                    widgetNode(
                        widget, mode: .vibrant, at: Rect(x: x, y: y, width: s.width, height: s.height), dark: true))
                x += s.width + slotGap
                rowHeight = max(rowHeight, s.height)
            }
            y += rowHeight
        }
        y += 24

        // Live Activities, most relevant first, at the bottom with the notifications: the
        // last one ends above the flashlight and camera buttons, the list grows upwards (and
        // never over the accessories).
        let shown = (screen.lockScreen?.activities ?? []).filter {
            $0.presentations.isEmpty || $0.presentations.contains("lockScreen")
        }
        let x = (size.width - lockScreenActivityWidth) / 2
        // Each laid out once at the top, then moved down into place.
        let nodes = shown.map { item -> GlimpseWidgetV1.LayoutNode in
            let activity = item.activity ?? .init()
            var node = lockScreenActivity(
                views[activity.activityId] ?? Self.missingViews(activity), bundleID: activity.bundleId, origin: (x, 0))
            node.id = activity.activityId
            if item.stale { node.dimmed = true }
            return node
        }
        let gap = 8.0
        let total = nodes.reduce(0) { $0 + Rect($1.frame).height } + gap * Double(max(0, nodes.count - 1))
        var top = max(y, size.height - Self.lockScreenBottomInset - total)
        for var node in nodes {
            Self.moveDown(&node, by: top)
            root.children.append(node)
            top = Rect(node.frame).maxY + gap
        }
        return layout("lockScreen", size: size, mode: .vibrant, root: root)
    }

    package func dynamicIsland(
        _ screen: GlimpseGatewayV1.Screen, views: [String: GlimpseWidgetV1.ActivityViews]
    ) -> GlimpseWidgetV1.Layout {
        let width = environment.device.screenSize.width
        let island = screen.dynamicIsland ?? .init()
        let top = 11.0
        let activities = screen.lockScreen?.activities.compactMap(\.activity) ?? []
        let known: [String: GlimpseWidgetV1.ActivityViews] = views
        func lookup(_ id: String) -> (GlimpseWidgetV1.ActivityViews, String) {
            let activity = activities.first { $0.activityId == id } ?? GlimpseActivityV1.Activity(activityId: id)
            return (known[id] ?? Self.missingViews(activity), activity.bundleId)
        }
        var root = GlimpseWidgetV1.LayoutNode()
        root.kind = "screen"
        root.name = "dynamicIsland"
        var children: [GlimpseWidgetV1.LayoutNode] = []
        let mode = island.mode
        if !hasDynamicIsland {
            if mode != .none && mode != .unspecified {
                let (v, bundle) = lookup(island.activityId)
                var banner = lockScreenActivity(
                    v, bundleID: bundle, origin: ((width - lockScreenActivityWidth) / 2, top))
                banner.name = "banner"
                children.append(banner)
            }
        } else {
            switch mode {
            case .compact:
                let (v, bundle) = lookup(island.activityId)
                let w = 2 * (environment.device.maximumSize(of: .compact)?.width ?? 52.33) + Self.cameraWidth
                children.append(
                    compactIsland(v.dynamicIsland ?? .init(), bundleID: bundle, origin: ((width - w) / 2, top)))
            case .minimal:
                let (a, aBundle) = lookup(island.activityId)
                let attachedWidth = minimalWidth(a.dynamicIsland?.minimal, bundleID: aBundle)
                var detached: (GlimpseWidgetV1.ActivityViews, String)?
                if !island.detachedActivityId.isEmpty { detached = lookup(island.detachedActivityId) }
                let gap = detached == nil ? 0 : 6.0
                // The camera is hardware: it stays at the screen's centre, the attached
                // minimal grows out of its leading side, the detached one sits after it.
                let x = (width - Self.cameraWidth) / 2 - attachedWidth
                var attached = minimalIsland(
                    a.dynamicIsland?.minimal, bundleID: aBundle, origin: (x, top), name: "minimalAttached")
                // The attached minimal joins the camera's pill on its leading side.
                attached.frame =
                    Rect(x: x, y: top, width: attachedWidth + Self.cameraWidth, height: Self.islandHeight).message
                attached.children.append(camera(x + attachedWidth, top))
                children.append(attached)
                if let (d, dBundle) = detached {
                    children.append(
                        minimalIsland(
                            d.dynamicIsland?.minimal, bundleID: dBundle,
                            origin: (x + attachedWidth + Self.cameraWidth + gap, top), name: "minimalDetached"))
                }
            case .expanded:
                let (v, bundle) = lookup(island.activityId)
                let w = environment.device.maximumSize(of: .expanded)?.width ?? 371
                children.append(
                    expandedIsland(v.dynamicIsland ?? .init(), bundleID: bundle, origin: ((width - w) / 2, top)))
            default:
                var idle = camera((width - Self.cameraWidth) / 2, top)
                idle.kind = "island"
                idle.name = "idle"
                idle.fill = ColorResolver.RGBA(0, 0, 0).paint
                idle.clipShape = GlimpseWidgetV1.Shape(kind: .capsule)
                children.append(idle)
            }
        }
        let bottom = children.map { Rect($0.frame).maxY }.max() ?? (top + Self.islandHeight)
        let size = Size(width: width, height: bottom + top)
        root.frame = Rect(x: 0, y: 0, width: size.width, height: size.height).message
        root.fill = ColorResolver.RGBA(hex: 0x20232B).paint
        root.children = children
        return layout("dynamicIsland", size: size, mode: .fullColor, root: root, dark: true)
    }

    /// An activity the gateway has no views for: a box that names it.
    static func missingViews(_ activity: GlimpseActivityV1.Activity) -> GlimpseWidgetV1.ActivityViews {
        let name = activity.attributesType.isEmpty ? activity.activityId : activity.attributesType
        var text = GlimpseWidgetV1.View()
        text.kind = .text(GlimpseWidgetV1.Text(content: "\(activity.bundleId) \(name)"))
        text.modifiers = [
            GlimpseWidgetV1.Modifier(kind: .lineLimit(1)), GlimpseWidgetV1.Modifier(kind: .padding(.init())),
        ]
        var island = GlimpseWidgetV1.DynamicIslandViews()
        var short = GlimpseWidgetV1.View()
        short.kind = .text(GlimpseWidgetV1.Text(content: String(name.prefix(1))))
        island.compactLeading = short
        island.minimal = short
        island.expandedCenter = GlimpseWidgetV1.ExpandedRegion(view: text)
        var views = GlimpseWidgetV1.ActivityViews()
        views.lockScreen = text
        views.dynamicIsland = island
        return views
    }

    func systemText(
        _ s: String, font: FontSpec, centerX: Double, y: Double, color: ColorResolver.RGBA, name: String
    ) -> GlimpseWidgetV1.LayoutNode {
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "text"
        node.name = name
        node.text = s
        node.fontSize = font.size
        node.fontWeight = font.weight
        node.fontDesign = font.design
        node.lineCount = 1
        node.textAlignment = .center
        let w = font.width(of: s)
        node.frame = Rect(x: centerX - w / 2, y: y, width: w, height: font.lineHeight).message
        node.foreground = color.paint
        return node
    }
}
