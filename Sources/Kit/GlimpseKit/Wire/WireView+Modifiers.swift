package import GlimpseMessages

/// SwiftUI's modifiers on the wire's view: each appends one `Modifier`, in order (padding
/// then background differs from background then padding, as in SwiftUI).
extension GlimpseWidgetV1.View {
    package func modifier(_ kind: GlimpseWidgetV1.Modifier.Kind) -> WireView {
        var view = self
        view.modifiers.append(GlimpseWidgetV1.Modifier(kind: kind))
        return view
    }

    /// .id(_:): the name a script taps the view by.
    package func id(_ id: String) -> WireView {
        var view = self
        view.id = id
        return view
    }

    package func font(_ font: WireFont) -> WireView { modifier(.font(font)) }
    package func foregroundStyle(_ style: WireStyle) -> WireView { modifier(.foregroundStyle(style)) }
    package func foregroundColor(_ color: WireColor) -> WireView { modifier(.foregroundStyle(.color(color))) }
    package func tint(_ style: WireStyle) -> WireView { modifier(.tint(style)) }
    package func background(_ style: WireStyle) -> WireView { modifier(.background(style)) }
    package func opacity(_ value: Double) -> WireView { modifier(.opacity(value)) }
    package func lineLimit(_ lines: Int32) -> WireView { modifier(.lineLimit(lines)) }
    package func minimumScaleFactor(_ factor: Double) -> WireView { modifier(.minimumScaleFactor(factor)) }
    package func monospacedDigit() -> WireView { modifier(.monospacedDigit(true)) }
    package func multilineTextAlignment(_ alignment: GlimpseWidgetV1.TextAlignment) -> WireView {
        modifier(.multilineTextAlignment(alignment))
    }
    package func fontWeight(_ weight: GlimpseWidgetV1.FontWeight) -> WireView { modifier(.fontWeight(weight)) }
    package func bold() -> WireView { fontWeight(.bold) }
    package func cornerRadius(_ radius: Double) -> WireView { modifier(.cornerRadius(radius)) }
    package func clipShape(_ shape: WireShape) -> WireView { modifier(.clipShape(shape)) }
    package func mask(_ shape: WireShape) -> WireView { modifier(.mask(shape)) }
    package func scaleEffect(x: Double = 1, y: Double = 1) -> WireView {
        modifier(.scaleEffect(GlimpseWidgetV1.ScaleEffect(x: x, y: y)))
    }
    package func widgetAccentable() -> WireView { modifier(.widgetAccentable(true)) }
    package func accessibilityLabel(_ label: String) -> WireView { modifier(.accessibilityLabel(label)) }
    package func activityBackgroundTint(_ style: WireStyle) -> WireView { modifier(.activityBackgroundTint(style)) }

    /// .padding() (the system's length), .padding(16), .padding(.horizontal, 12).
    package func padding(_ edges: GlimpseWidgetV1.Edge = .all, _ length: Double? = nil) -> WireView {
        modifier(.padding(GlimpseWidgetV1.Padding(edges: edges, length: length)))
    }

    package func padding(_ length: Double) -> WireView { padding(.all, length) }

    package func frame(
        width: Double? = nil, height: Double? = nil, minWidth: Double? = nil, maxWidth: Double? = nil,
        minHeight: Double? = nil, maxHeight: Double? = nil,
        alignment: GlimpseWidgetV1.Alignment? = nil
    ) -> WireView {
        modifier(
            .frame(
                GlimpseWidgetV1.Frame(
                    width: width, height: height, minWidth: minWidth, maxWidth: maxWidth, minHeight: minHeight,
                    maxHeight: maxHeight, alignment: alignment)))
    }

    /// .containerBackground(style, for: .widget); nil: `{ }`, the system's background.
    package func containerBackground(_ style: WireStyle?) -> WireView {
        modifier(.containerBackground(GlimpseWidgetV1.ContainerBackground(style: style, placement: .widget)))
    }
}

extension GlimpseWidgetV1.Alignment {
    package static let leading = Self(horizontal: .leading, vertical: .center)
    package static let bottomLeading = Self(horizontal: .leading, vertical: .bottom)
}
