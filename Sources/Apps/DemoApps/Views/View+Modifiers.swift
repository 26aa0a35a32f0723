import GlimpseMessages

/// SwiftUI's modifiers on the wire's view: each appends one `Modifier`, in order (padding
/// then background differs from background then padding, as in SwiftUI).
extension GlimpseWidgetV1.View {
    func modifier(_ kind: GlimpseWidgetV1.Modifier.Kind) -> View {
        var view = self
        view.modifiers.append(GlimpseWidgetV1.Modifier(kind: kind))
        return view
    }

    /// .id(_:): the name a script taps the view by.
    func id(_ id: String) -> View {
        var view = self
        view.id = id
        return view
    }

    func font(_ font: Font) -> View { modifier(.font(font)) }
    func foregroundStyle(_ style: Style) -> View { modifier(.foregroundStyle(style)) }
    func foregroundColor(_ color: Color) -> View { modifier(.foregroundStyle(.color(color))) }
    func tint(_ style: Style) -> View { modifier(.tint(style)) }
    func background(_ style: Style) -> View { modifier(.background(style)) }
    func opacity(_ value: Double) -> View { modifier(.opacity(value)) }
    func lineLimit(_ lines: Int32) -> View { modifier(.lineLimit(lines)) }
    func minimumScaleFactor(_ factor: Double) -> View { modifier(.minimumScaleFactor(factor)) }
    func monospacedDigit() -> View { modifier(.monospacedDigit(true)) }
    func multilineTextAlignment(_ alignment: GlimpseWidgetV1.TextAlignment) -> View {
        modifier(.multilineTextAlignment(alignment))
    }
    func fontWeight(_ weight: GlimpseWidgetV1.FontWeight) -> View { modifier(.fontWeight(weight)) }
    func bold() -> View { fontWeight(.bold) }
    func cornerRadius(_ radius: Double) -> View { modifier(.cornerRadius(radius)) }
    func clipShape(_ shape: Shape) -> View { modifier(.clipShape(shape)) }
    func mask(_ shape: Shape) -> View { modifier(.mask(shape)) }
    func scaleEffect(x: Double = 1, y: Double = 1) -> View {
        modifier(.scaleEffect(GlimpseWidgetV1.ScaleEffect(x: x, y: y)))
    }
    func widgetAccentable() -> View { modifier(.widgetAccentable(true)) }
    func accessibilityLabel(_ label: String) -> View { modifier(.accessibilityLabel(label)) }
    func activityBackgroundTint(_ style: Style) -> View { modifier(.activityBackgroundTint(style)) }

    /// .padding() (the system's length), .padding(16), .padding(.horizontal, 12).
    func padding(_ edges: GlimpseWidgetV1.Edge = .all, _ length: Double? = nil) -> View {
        modifier(.padding(GlimpseWidgetV1.Padding(edges: edges, length: length)))
    }

    func padding(_ length: Double) -> View { padding(.all, length) }

    func frame(
        width: Double? = nil, height: Double? = nil, minWidth: Double? = nil, maxWidth: Double? = nil,
        minHeight: Double? = nil, maxHeight: Double? = nil,
        alignment: GlimpseWidgetV1.Alignment? = nil
    ) -> View {
        modifier(
            .frame(
                GlimpseWidgetV1.Frame(
                    width: width, height: height, minWidth: minWidth, maxWidth: maxWidth, minHeight: minHeight,
                    maxHeight: maxHeight, alignment: alignment)))
    }

    /// .containerBackground(style, for: .widget); nil: `{ }`, the system's background.
    func containerBackground(_ style: Style?) -> View {
        modifier(.containerBackground(GlimpseWidgetV1.ContainerBackground(style: style, placement: .widget)))
    }
}

extension GlimpseWidgetV1.Alignment {
    static let leading = Self(horizontal: .leading, vertical: .center)
    static let bottomLeading = Self(horizontal: .leading, vertical: .bottom)
}
