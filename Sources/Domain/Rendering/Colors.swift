internal import GlimpseMessages

/// Colors as the device resolves them: system colors per appearance (iOS's light and dark
/// values), hierarchical label and fill styles, then the widget rendering mode:
/// - fullColor: as resolved;
/// - accented: accentable content in the accent color, the rest white (alpha kept);
/// - vibrant: desaturated to its luminance (alpha kept).
struct ColorResolver {
    var dark: Bool
    var mode: GlimpseWidgetV1.WidgetRenderingMode
    /// The accented mode's tint (the user's choice on a tinted Home Screen).
    static let accentTint = RGBA(0.35, 0.62, 1.0, 1)

    struct RGBA: Equatable {
        var r: Double, g: Double, b: Double, a: Double
        init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
            self.r = r
            self.g = g
            self.b = b
            self.a = a
        }
        init(hex: UInt32, alpha: Double = 1) {
            self.init(
                Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255, alpha)
        }
        func withAlpha(_ alpha: Double) -> RGBA { RGBA(r, g, b, alpha) }
        /// This color drawn over an opaque `base` ("source over").
        func over(_ base: RGBA) -> RGBA {
            RGBA(r * a + base.r * (1 - a), g * a + base.g * (1 - a), b * a + base.b * (1 - a), 1)
        }
        var luminance: Double { 0.2126 * r + 0.7152 * g + 0.0722 * b }
        var message: GlimpseWidgetV1.ResolvedColor {
            GlimpseWidgetV1.ResolvedColor(red: Float(r), green: Float(g), blue: Float(b), alpha: Float(a))
        }
        var paint: GlimpseWidgetV1.Paint {
            var p = GlimpseWidgetV1.Paint()
            p.kind = .color(message)
            return p
        }
    }

    var primary: RGBA { dark ? RGBA(1, 1, 1) : RGBA(0, 0, 0) }
    var widgetBackground: RGBA { dark ? RGBA(hex: 0x1C1C1E) : RGBA(1, 1, 1) }

    func system(_ color: GlimpseWidgetV1.SystemColor) -> RGBA {
        switch color {
        case .accentColor, .blue: RGBA(hex: dark ? 0x0A84FF : 0x007AFF)
        case .primary, .unspecified: primary
        case .secondary: label(.secondary)
        case .clear: RGBA(0, 0, 0, 0)
        case .black: RGBA(0, 0, 0)
        case .white: RGBA(1, 1, 1)
        case .gray: RGBA(hex: 0x8E8E93)
        case .red: RGBA(hex: dark ? 0xFF453A : 0xFF3B30)
        case .orange: RGBA(hex: dark ? 0xFF9F0A : 0xFF9500)
        case .yellow: RGBA(hex: dark ? 0xFFD60A : 0xFFCC00)
        case .green: RGBA(hex: dark ? 0x30D158 : 0x34C759)
        case .mint: RGBA(hex: dark ? 0x63E6E2 : 0x00C7BE)
        case .teal: RGBA(hex: dark ? 0x40C8E0 : 0x30B0C7)
        case .cyan: RGBA(hex: dark ? 0x64D2FF : 0x32ADE6)
        case .indigo: RGBA(hex: dark ? 0x5E5CE6 : 0x5856D6)
        case .purple: RGBA(hex: dark ? 0xBF5AF2 : 0xAF52DE)
        case .pink: RGBA(hex: dark ? 0xFF375F : 0xFF2D55)
        case .brown: RGBA(hex: dark ? 0xAC8E68 : 0xA2845E)
        case .unrecognized: primary
        }
    }

    /// `.primary`, `.secondary`…: the label colors.
    func label(_ level: GlimpseWidgetV1.HierarchicalStyle) -> RGBA {
        switch level {
        case .secondary: dark ? RGBA(hex: 0xEBEBF5, alpha: 0.6) : RGBA(hex: 0x3C3C43, alpha: 0.6)
        case .tertiary: dark ? RGBA(hex: 0xEBEBF5, alpha: 0.3) : RGBA(hex: 0x3C3C43, alpha: 0.3)
        case .quaternary: dark ? RGBA(hex: 0xEBEBF5, alpha: 0.18) : RGBA(hex: 0x3C3C43, alpha: 0.18)
        default: primary
        }
    }

    /// `.fill`, `.fill.secondary`…: the system fills.
    func fill(_ level: GlimpseWidgetV1.HierarchicalStyle) -> RGBA {
        switch level {
        case .secondary: RGBA(hex: 0x787880, alpha: dark ? 0.32 : 0.16)
        case .tertiary: RGBA(hex: 0x767680, alpha: dark ? 0.24 : 0.12)
        case .quaternary: RGBA(hex: 0x747480, alpha: dark ? 0.18 : 0.08)
        default: RGBA(hex: 0x787880, alpha: dark ? 0.36 : 0.2)
        }
    }

    func color(_ color: GlimpseWidgetV1.Color, tint: RGBA?) -> RGBA {
        var rgba: RGBA
        switch color.value {
        case .system(let s)?: rgba = s == .accentColor ? (tint ?? system(.accentColor)) : system(s)
        case .rgba(let c)?: rgba = RGBA(Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
        case .assetName?: rgba = tint ?? system(.accentColor)  // named colors are not shipped; the accent stands in
        case nil: rgba = primary
        }
        if let opacity = color.opacity { rgba.a *= opacity }
        return rgba
    }

    /// A shape style as a paint, before the rendering mode.
    func paint(_ style: GlimpseWidgetV1.ShapeStyle?, tint: RGBA?, foreground: RGBA) -> Paint {
        switch style?.kind {
        case .color(let c)?: return .color(color(c, tint: tint))
        case .hierarchical(let level)?:
            let base = label(level)
            return .color(
                level == .primary || level == .unspecified ? foreground : foreground.withAlpha(foreground.a * base.a))
        case .fill(let level)?: return .color(fill(level))
        case .linearGradient(let g)?:
            let stops = g.stops.map { (color($0.color ?? .init(), tint: tint), $0.location) }
            let start = g.startPoint.map { ($0.x, $0.y) } ?? (0.5, 0)
            let end = g.endPoint.map { ($0.x, $0.y) } ?? (0.5, 1)
            return .gradient(stops: stops, start: start, end: end)
        case nil: return .color(foreground)
        }
    }

    /// The rendering mode applied to a resolved color.
    func finish(_ c: RGBA, accentable: Bool) -> RGBA {
        switch mode {
        case .accented: return (accentable ? Self.accentTint : RGBA(1, 1, 1)).withAlpha(c.a)
        case .vibrant:
            let l = c.luminance
            return RGBA(l, l, l, c.a)
        default: return c
        }
    }

    func finish(_ p: Paint, accentable: Bool) -> Paint {
        switch p {
        case .color(let c): return .color(finish(c, accentable: accentable))
        case .gradient(let stops, let start, let end):
            return .gradient(stops: stops.map { (finish($0.0, accentable: accentable), $0.1) }, start: start, end: end)
        }
    }
}

/// A paint before it becomes the wire's `Paint`.
enum Paint: Equatable {
    case color(ColorResolver.RGBA)
    case gradient(stops: [(ColorResolver.RGBA, Double)], start: (Double, Double), end: (Double, Double))

    static func == (a: Paint, b: Paint) -> Bool { a.message == b.message }

    var message: GlimpseWidgetV1.Paint {
        switch self {
        case .color(let c): return c.paint
        case .gradient(let stops, let start, let end):
            var g = GlimpseWidgetV1.ResolvedGradient()
            g.stops = stops.map { GlimpseWidgetV1.ResolvedGradient.Stop(color: $0.0.message, location: $0.1) }
            g.startPoint = GlimpseWidgetV1.UnitPoint(x: start.0, y: start.1)
            g.endPoint = GlimpseWidgetV1.UnitPoint(x: end.0, y: end.1)
            var p = GlimpseWidgetV1.Paint()
            p.kind = .gradient(g)
            return p
        }
    }
}
