public import GlimpseMessages

/// `Color`: a system color, an RGB one or a named asset; a view (the color filling its
/// space) and a shape style.
public struct Color: PrimitiveView, ShapeStyle, Hashable, Sendable {
    var value: GlimpseWidgetV1.Color

    init(_ value: GlimpseWidgetV1.Color) { self.value = value }
    /// A named color of the app's assets.
    public init(_ name: String) { self.init(GlimpseWidgetV1.Color(value: .assetName(name))) }
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.init(.rgb(Float(red), Float(green), Float(blue), opacity: opacity == 1 ? nil : opacity))
    }
    public init(white: Double, opacity: Double = 1) {
        self.init(red: white, green: white, blue: white, opacity: opacity)
    }

    static func system(_ color: GlimpseWidgetV1.SystemColor) -> Color { Color(.system(color)) }

    public static let accentColor = system(.accentColor)
    public static let primary = system(.primary)
    public static let secondary = system(.secondary)
    public static let clear = system(.clear)
    public static let black = system(.black)
    public static let white = system(.white)
    public static let gray = system(.gray)
    public static let red = system(.red)
    public static let orange = system(.orange)
    public static let yellow = system(.yellow)
    public static let green = system(.green)
    public static let mint = system(.mint)
    public static let teal = system(.teal)
    public static let cyan = system(.cyan)
    public static let blue = system(.blue)
    public static let indigo = system(.indigo)
    public static let purple = system(.purple)
    public static let pink = system(.pink)
    public static let brown = system(.brown)

    /// `Color.black.opacity(0.95)`.
    public func opacity(_ opacity: Double) -> Color {
        var color = self
        color.value.opacity = opacity
        return color
    }

    public var wireView: GlimpseWidgetV1.View { .shape(.rectangle, fill: wireStyle) }
    public var wireStyle: GlimpseWidgetV1.ShapeStyle { .color(value) }
}

/// What fills, tints and colors text: a color, `.primary`/`.secondary`, `.fill.tertiary`,
/// a gradient.
public protocol ShapeStyle: Sendable {
    var wireStyle: GlimpseWidgetV1.ShapeStyle { get }
}

/// `.primary`, `.secondary`, `.tertiary`, `.quaternary`; `.fill.tertiary` for a fill.
public struct HierarchicalShapeStyle: ShapeStyle {
    let level: GlimpseWidgetV1.HierarchicalStyle
    let isFill: Bool

    public var wireStyle: GlimpseWidgetV1.ShapeStyle {
        GlimpseWidgetV1.ShapeStyle(kind: isFill ? .fill(level) : .hierarchical(level))
    }

    public static let primary = Self(level: .primary, isFill: false)
    public static let secondary = Self(level: .secondary, isFill: false)
    public static let tertiary = Self(level: .tertiary, isFill: false)
    public static let quaternary = Self(level: .quaternary, isFill: false)

    public var primary: Self { Self(level: .primary, isFill: isFill) }
    public var secondary: Self { Self(level: .secondary, isFill: isFill) }
    public var tertiary: Self { Self(level: .tertiary, isFill: isFill) }
    public var quaternary: Self { Self(level: .quaternary, isFill: isFill) }
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { .primary }
    public static var secondary: HierarchicalShapeStyle { .secondary }
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
    /// `.fill.tertiary`, the container background widgets declare.
    public static var fill: HierarchicalShapeStyle { HierarchicalShapeStyle(level: .primary, isFill: true) }
}

extension ShapeStyle where Self == Color {
    public static var accentColor: Color { .accentColor }
    public static var clear: Color { .clear }
    public static var black: Color { .black }
    public static var white: Color { .white }
    public static var gray: Color { .gray }
    public static var red: Color { .red }
    public static var orange: Color { .orange }
    public static var yellow: Color { .yellow }
    public static var green: Color { .green }
    public static var mint: Color { .mint }
    public static var teal: Color { .teal }
    public static var cyan: Color { .cyan }
    public static var blue: Color { .blue }
    public static var indigo: Color { .indigo }
    public static var purple: Color { .purple }
    public static var pink: Color { .pink }
    public static var brown: Color { .brown }
}

/// `Gradient(colors:)`, `Gradient(stops:)`.
public struct Gradient: Hashable, Sendable {
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: Double
        public init(color: Color, location: Double) {
            self.color = color
            self.location = location
        }
    }

    public var stops: [Stop]
    public init(stops: [Stop]) { self.stops = stops }
    public init(colors: [Color]) {
        let last = Double(max(colors.count - 1, 1))
        self.stops = colors.enumerated().map { Stop(color: $1, location: Double($0) / last) }
    }
}

/// `LinearGradient(gradient:startPoint:endPoint:)`: a view and a shape style.
public struct LinearGradient: PrimitiveView, ShapeStyle {
    let gradient: GlimpseWidgetV1.LinearGradient

    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = GlimpseWidgetV1.LinearGradient(
            stops: gradient.stops.map { .init(color: $0.color.value, location: $0.location) },
            startPoint: startPoint.wire, endPoint: endPoint.wire)
    }
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }
    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }

    public var wireView: GlimpseWidgetV1.View {
        GlimpseWidgetV1.View(kind: .gradient(GlimpseWidgetV1.LinearGradientView(gradient: gradient)))
    }
    public var wireStyle: GlimpseWidgetV1.ShapeStyle { GlimpseWidgetV1.ShapeStyle(kind: .linearGradient(gradient)) }
}

public struct UnitPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    var wire: GlimpseWidgetV1.UnitPoint { GlimpseWidgetV1.UnitPoint(x: x, y: y) }

    public static let zero = UnitPoint(x: 0, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// `Font`: the text styles, `.system(size:weight:design:)`, `.weight(_:)`.
public struct Font: Hashable, Sendable {
    var wire: GlimpseWidgetV1.Font

    public enum Weight: Hashable, Sendable {
        case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
        var wire: GlimpseWidgetV1.FontWeight {
            switch self {
            case .ultraLight: .ultraLight
            case .thin: .thin
            case .light: .light
            case .regular: .regular
            case .medium: .medium
            case .semibold: .semibold
            case .bold: .bold
            case .heavy: .heavy
            case .black: .black
            }
        }
    }

    public enum Design: Hashable, Sendable {
        case `default`, rounded, serif, monospaced
        var wire: GlimpseWidgetV1.FontDesign {
            switch self {
            case .default: .default
            case .rounded: .rounded
            case .serif: .serif
            case .monospaced: .monospaced
            }
        }
    }

    static func style(_ style: GlimpseWidgetV1.FontTextStyle) -> Font { Font(wire: .init(textStyle: style)) }

    public static let largeTitle = style(.largeTitle)
    public static let title = style(.title)
    public static let title2 = style(.title2)
    public static let title3 = style(.title3)
    public static let headline = style(.headline)
    public static let subheadline = style(.subheadline)
    public static let body = style(.body)
    public static let callout = style(.callout)
    public static let footnote = style(.footnote)
    public static let caption = style(.caption)
    public static let caption2 = style(.caption2)

    public static func system(size: Double, weight: Weight? = nil, design: Design? = nil) -> Font {
        Font(wire: .system(size: size, weight: weight?.wire ?? .unspecified, design: design?.wire ?? .default))
    }

    public func weight(_ weight: Weight) -> Font { Font(wire: wire.weight(weight.wire)) }
    public func bold() -> Font { weight(.bold) }
}

public enum HorizontalAlignment: Sendable, Hashable {
    case leading, center, trailing
    var wire: GlimpseWidgetV1.HorizontalAlignment {
        switch self {
        case .leading: .leading
        case .center: .center
        case .trailing: .trailing
        }
    }
}

public enum VerticalAlignment: Sendable, Hashable {
    case top, center, bottom, firstTextBaseline, lastTextBaseline
    var wire: GlimpseWidgetV1.VerticalAlignment {
        switch self {
        case .top: .top
        case .center: .center
        case .bottom: .bottom
        case .firstTextBaseline: .firstTextBaseline
        case .lastTextBaseline: .lastTextBaseline
        }
    }
}

public struct Alignment: Sendable, Hashable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    var wire: GlimpseWidgetV1.Alignment {
        GlimpseWidgetV1.Alignment(horizontal: horizontal.wire, vertical: vertical.wire)
    }

    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

public enum TextAlignment: Sendable {
    case leading, center, trailing
    var wire: GlimpseWidgetV1.TextAlignment {
        switch self {
        case .leading: .leading
        case .center: .center
        case .trailing: .trailing
        }
    }
}

public enum ContentMode: Sendable {
    case fit, fill
    var wire: GlimpseWidgetV1.ContentMode { self == .fit ? .fit : .fill }
}

public enum Edge: Sendable {
    case top, leading, bottom, trailing

    /// `.all`, `.horizontal`, `[.top, .bottom]`.
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1)
        public static let leading = Set(rawValue: 2)
        public static let bottom = Set(rawValue: 4)
        public static let trailing = Set(rawValue: 8)
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
        public static let all: Set = [.top, .leading, .bottom, .trailing]

        /// The wire's padding edges: one modifier per edge group it can say.
        var wire: [GlimpseWidgetV1.Edge] {
            if self == .all { return [.all] }
            var edges: [GlimpseWidgetV1.Edge] = []
            var rest = self
            if rest.isSuperset(of: .horizontal) {
                edges.append(.horizontal)
                rest.subtract(.horizontal)
            }
            if rest.isSuperset(of: .vertical) {
                edges.append(.vertical)
                rest.subtract(.vertical)
            }
            if rest.contains(.top) { edges.append(.top) }
            if rest.contains(.bottom) { edges.append(.bottom) }
            if rest.contains(.leading) { edges.append(.leading) }
            if rest.contains(.trailing) { edges.append(.trailing) }
            return edges
        }
    }
}
