package import GlimpseMessages

/// Colors, shape styles, fonts and shapes under SwiftUI's names.
extension GlimpseWidgetV1.Color {
    package static func system(_ color: GlimpseWidgetV1.SystemColor, opacity: Double? = nil) -> WireColor {
        WireColor(value: .system(color), opacity: opacity)
    }

    /// Color(red:green:blue:), 0...1.
    package static func rgb(_ red: Float, _ green: Float, _ blue: Float, opacity: Double? = nil) -> WireColor {
        WireColor(value: .rgba(RGBA(red: red, green: green, blue: blue, alpha: 1)), opacity: opacity)
    }

    package static let white = system(.white)
    package static let black = system(.black)
    package static let clear = system(.clear)
}

extension GlimpseWidgetV1.ShapeStyle {
    package static let primary = WireStyle(kind: .hierarchical(.primary))
    package static let secondary = WireStyle(kind: .hierarchical(.secondary))
    /// `.fill.tertiary`: the container background the article's widgets declare.
    package static let fillTertiary = WireStyle(kind: .fill(.tertiary))

    package static func color(_ color: WireColor) -> WireStyle { WireStyle(kind: .color(color)) }
    package static func system(_ color: GlimpseWidgetV1.SystemColor, opacity: Double? = nil) -> WireStyle {
        .color(.system(color, opacity: opacity))
    }
}

extension GlimpseWidgetV1.LinearGradient {
    package static func stops(
        _ stops: [(WireColor, Double)], from start: GlimpseWidgetV1.UnitPoint, to end: GlimpseWidgetV1.UnitPoint
    ) -> Self {
        Self(stops: stops.map { Stop(color: $0.0, location: $0.1) }, startPoint: start, endPoint: end)
    }
}

extension GlimpseWidgetV1.UnitPoint {
    package static let top = Self(x: 0.5, y: 0)
    package static let bottom = Self(x: 0.5, y: 1)
    package static let leading = Self(x: 0, y: 0.5)
    package static let trailing = Self(x: 1, y: 0.5)
}

extension GlimpseWidgetV1.Font {
    package static let largeTitle = WireFont(textStyle: .largeTitle)
    package static let title = WireFont(textStyle: .title)
    package static let title2 = WireFont(textStyle: .title2)
    package static let title3 = WireFont(textStyle: .title3)
    package static let headline = WireFont(textStyle: .headline)
    package static let subheadline = WireFont(textStyle: .subheadline)
    package static let body = WireFont(textStyle: .body)
    package static let caption = WireFont(textStyle: .caption)
    package static let caption2 = WireFont(textStyle: .caption2)

    /// .system(size:weight:design:).
    package static func system(
        size: Double, weight: GlimpseWidgetV1.FontWeight = .unspecified, design: GlimpseWidgetV1.FontDesign = .default
    ) -> WireFont {
        WireFont(textStyle: .unspecified, size: size, weight: weight, design: design)
    }

    /// `.title3.weight(.semibold)`.
    package func weight(_ weight: GlimpseWidgetV1.FontWeight) -> WireFont {
        var font = self
        font.weight = weight
        return font
    }
}

extension GlimpseWidgetV1.Shape {
    package static let capsule = WireShape(kind: .capsule)
    package static let circle = WireShape(kind: .circle)
    package static let rectangle = WireShape(kind: .rectangle)
    package static func roundedRectangle(cornerRadius: Double) -> WireShape {
        WireShape(kind: .roundedRectangle, cornerRadius: cornerRadius)
    }
}
