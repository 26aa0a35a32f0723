package import GlimpseMessages
internal import GlimpseVocabulary

/// The Home Screen: the device's screen with a wallpaper and status bar, one page's widgets
/// flowed row-major onto the icon grid (4 columns × 6 rows on iPhone, 8 columns on iPad).
/// Cell and gap sizes come from the family table: column gap = medium.w − 2·small.w, row
/// gap = large.h − 2·small.h, and the grid is centered across the screen.
extension Renderer {
    struct HomeGrid {
        var columns: Int
        var rows: Int
        var cell: Size
        var gap: Size
        var origin: (Double, Double)

        func rect(column: Int, row: Int, span: (Int, Int)) -> Rect {
            Rect(
                x: origin.0 + Double(column) * (cell.width + gap.width),
                y: origin.1 + Double(row) * (cell.height + gap.height),
                width: Double(span.0) * cell.width + Double(span.0 - 1) * gap.width,
                height: Double(span.1) * cell.height + Double(span.1 - 1) * gap.height)
        }
    }

    var statusBarHeight: Double {
        switch environment.device {
        case .iPhone375x667, .iPad1024x1366: 20
        case .iPhone375x812: 44
        default: 54
        }
    }

    func homeGrid() -> HomeGrid {
        let small = widgetSize(.systemSmall), medium = widgetSize(.systemMedium), large = widgetSize(.systemLarge)
        let gap = Size(width: medium.width - 2 * small.width, height: large.height - 2 * small.height)
        let cell = Size(width: (small.width - gap.width) / 2, height: (small.height - gap.height) / 2)
        let columns = environment.device == .iPad1024x1366 ? 8 : 4
        let gridWidth = Double(columns) * cell.width + Double(columns - 1) * gap.width
        let screen = environment.device.screenSize
        return HomeGrid(
            columns: columns, rows: 6, cell: cell, gap: gap,
            origin: ((screen.width - gridWidth) / 2, statusBarHeight + 16))
    }

    static func span(_ family: WidgetFamily) -> (Int, Int) {
        switch family {
        case .systemMedium: (4, 2)
        case .systemLarge: (4, 4)
        case .systemExtraLarge: (8, 4)
        default: (2, 2)
        }
    }

    package func homeScreen(_ screen: GlimpseGatewayV1.Screen, page: Int = 0) -> GlimpseWidgetV1.Layout {
        let size = Size(width: environment.device.screenSize.width, height: environment.device.screenSize.height)
        var root = screenNode("homeScreen", size: size)
        root.children.append(statusBar(width: size.width))
        let grid = homeGrid()
        var occupied = Array(repeating: Array(repeating: false, count: grid.columns), count: grid.rows)
        let pages = screen.homePages
        let slots = page < pages.count && page >= 0 ? pages[page].slots : []
        for slot in slots {
            guard let top = slot.widgets.first else { continue }
            var span = Self.span(Self.family(top.family))
            span.0 = min(span.0, grid.columns)
            guard let (column, row) = Self.firstFit(span, in: &occupied) else { continue }
            let rect = grid.rect(column: column, row: row, span: span)
            let widget = widgetNode(top, mode: .fullColor, at: rect)
            if slot.widgets.count > 1 {
                root.children.append(smartStack(widget, count: slot.widgets.count, rect: rect))
            } else {
                root.children.append(widget)
            }
        }
        if pages.count > 1 {
            root.children.append(
                pageDots(count: pages.count, current: page, centerX: size.width / 2, y: size.height - 130))
        }
        return layout("homeScreen \(page)", size: size, mode: .fullColor, root: root)
    }

    /// The first free cell (row-major) where `span` fits; marks it taken.
    static func firstFit(_ span: (Int, Int), in occupied: inout [[Bool]]) -> (Int, Int)? {
        let rows = occupied.count, columns = occupied.first?.count ?? 0
        guard span.0 <= columns, span.1 <= rows else { return nil }
        for row in 0...(rows - span.1) {
            for column in stride(from: 0, through: columns - span.0, by: 1) {
                var free = true
                for r in row..<(row + span.1) where free {
                    for c in column..<(column + span.0) where occupied[r][c] { free = false }
                }
                if free {
                    for r in row..<(row + span.1) { for c in column..<(column + span.0) { occupied[r][c] = true } }
                    return (column, row)
                }
            }
        }
        return nil
    }

    func smartStack(_ top: GlimpseWidgetV1.LayoutNode, count: Int, rect: Rect) -> GlimpseWidgetV1.LayoutNode {
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "smartStack"
        node.name = "smartStack \(top.name)"
        node.frame = rect.message
        node.children = [top, pageDots(count: count, current: 0, centerX: rect.maxX + 6, y: rect.midY, vertical: true)]
        node.accessibilityLabel = top.accessibilityLabel
        return node
    }

    func pageDots(
        count: Int, current: Int, centerX: Double, y: Double, vertical: Bool = false
    ) -> GlimpseWidgetV1.LayoutNode {
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "pageDots"
        node.value = Double(current)
        let step = 10.0, dot = 6.0
        let length = Double(count) * step - (step - dot)
        node.frame =
            (vertical
            ? Rect(x: centerX - dot / 2, y: y - length / 2, width: dot, height: length)
            : Rect(x: centerX - length / 2, y: y, width: length, height: dot)).message
        for i in 0..<count {
            var d = GlimpseWidgetV1.LayoutNode()
            d.kind = "dot"
            let offset = Double(i) * step
            d.frame =
                (vertical
                ? Rect(x: centerX - dot / 2, y: y - length / 2 + offset, width: dot, height: dot)
                : Rect(x: centerX - length / 2 + offset, y: y, width: dot, height: dot)).message
            d.fill = ColorResolver.RGBA(1, 1, 1, i == current ? 1 : 0.4).paint
            d.clipShape = GlimpseWidgetV1.Shape(kind: .circle)
            node.children.append(d)
        }
        return node
    }

    func screenNode(_ name: String, size: Size) -> GlimpseWidgetV1.LayoutNode {
        var root = GlimpseWidgetV1.LayoutNode()
        root.kind = "screen"
        root.name = name
        root.frame = Rect(x: 0, y: 0, width: size.width, height: size.height).message
        var g = GlimpseWidgetV1.ResolvedGradient()
        let top = environment.isDark ? ColorResolver.RGBA(hex: 0x1B2845) : ColorResolver.RGBA(hex: 0x4A78C2)
        let bottom = environment.isDark ? ColorResolver.RGBA(hex: 0x0B0F1A) : ColorResolver.RGBA(hex: 0x8E5BA8)
        g.stops = [.init(color: top.message, location: 0), .init(color: bottom.message, location: 1)]
        g.startPoint = GlimpseWidgetV1.UnitPoint(x: 0.5, y: 0)
        g.endPoint = GlimpseWidgetV1.UnitPoint(x: 0.5, y: 1)
        var paint = GlimpseWidgetV1.Paint()
        paint.kind = .gradient(g)
        root.fill = paint
        return root
    }

    func statusBar(width: Double) -> GlimpseWidgetV1.LayoutNode {
        let clock = Clock(now: environment.now, timeZone: environment.timeZone)
        let font = FontSpec(
            size: 17, weight: .semibold, design: .default, monospacedDigit: false, leadingRatio: 22.0 / 17)
        let label = clock.clock(environment.now)
        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "text"
        node.name = "statusBarClock"
        node.text = label
        node.fontSize = font.size
        node.fontWeight = .semibold
        node.lineCount = 1
        let textWidth = font.width(of: label)
        // Centered in the ear left of the Dynamic Island at its widest compact size, so a
        // compact Live Activity never covers it; without an island, a quarter of the way in.
        let x: Double
        if environment.device == .iPad1024x1366 {
            x = 20
        } else if let compact = environment.device.maximumSize(of: .compact) {
            let ear = (width - Self.cameraWidth - 2 * compact.width) / 2
            x = max(16, ear / 2 - textWidth / 2)
        } else {
            x = max(16, width / 4 - textWidth / 2 - 8)
        }
        node.frame =
            Rect(
                x: x, y: max(0, statusBarHeight / 2 - font.lineHeight / 2 + 2), width: textWidth,
                height: font.lineHeight
            ).message
        node.foreground = ColorResolver.RGBA(1, 1, 1).paint
        return node
    }
}
