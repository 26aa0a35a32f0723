import GlimpseMessages

/// Colors, shape styles, fonts and shapes under SwiftUI's names.
extension GlimpseWidgetV1.Color {
    static func system(_ color: GlimpseWidgetV1.SystemColor, opacity: Double? = nil) -> Color {
        Color(value: .system(color), opacity: opacity)
    }

    /// Color(red:green:blue:), 0...1.
    static func rgb(_ red: Float, _ green: Float, _ blue: Float, opacity: Double? = nil) -> Color {
        Color(value: .rgba(RGBA(red: red, green: green, blue: blue, alpha: 1)), opacity: opacity)
    }

    static let white = system(.white)
    static let black = system(.black)
    static let clear = system(.clear)
}

extension GlimpseWidgetV1.ShapeStyle {
    static let primary = Style(kind: .hierarchical(.primary))
    static let secondary = Style(kind: .hierarchical(.secondary))
    /// `.fill.tertiary`: the container background the article's widgets declare.
    static let fillTertiary = Style(kind: .fill(.tertiary))

    static func color(_ color: Color) -> Style { Style(kind: .color(color)) }
    static func system(_ color: GlimpseWidgetV1.SystemColor, opacity: Double? = nil) -> Style {
        .color(.system(color, opacity: opacity))
    }
}

extension GlimpseWidgetV1.LinearGradient {
    static func stops(
        _ stops: [(Color, Double)], from start: GlimpseWidgetV1.UnitPoint, to end: GlimpseWidgetV1.UnitPoint
    ) -> Self {
        Self(stops: stops.map { Stop(color: $0.0, location: $0.1) }, startPoint: start, endPoint: end)
    }
}

extension GlimpseWidgetV1.UnitPoint {
    static let top = Self(x: 0.5, y: 0)
    static let bottom = Self(x: 0.5, y: 1)
    static let leading = Self(x: 0, y: 0.5)
    static let trailing = Self(x: 1, y: 0.5)
}

extension GlimpseWidgetV1.Font {
    static let largeTitle = Font(textStyle: .largeTitle)
    static let title = Font(textStyle: .title)
    static let title2 = Font(textStyle: .title2)
    static let title3 = Font(textStyle: .title3)
    static let headline = Font(textStyle: .headline)
    static let subheadline = Font(textStyle: .subheadline)
    static let body = Font(textStyle: .body)
    static let caption = Font(textStyle: .caption)
    static let caption2 = Font(textStyle: .caption2)

    /// .system(size:weight:design:).
    static func system(
        size: Double, weight: GlimpseWidgetV1.FontWeight = .unspecified, design: GlimpseWidgetV1.FontDesign = .default
    ) -> Font {
        Font(textStyle: .unspecified, size: size, weight: weight, design: design)
    }

    /// `.title3.weight(.semibold)`.
    func weight(_ weight: GlimpseWidgetV1.FontWeight) -> Font {
        var font = self
        font.weight = weight
        return font
    }
}

extension GlimpseWidgetV1.Shape {
    static let capsule = Shape(kind: .capsule)
    static let circle = Shape(kind: .circle)
    static let rectangle = Shape(kind: .rectangle)
    static func roundedRectangle(cornerRadius: Double) -> Shape {
        Shape(kind: .roundedRectangle, cornerRadius: cornerRadius)
    }
}
