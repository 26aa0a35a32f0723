package import Foundation
package import GlimpseMessages

/// The wire's view tree, spelled the way the articles' SwiftUI spells it. Not SwiftUI: a
/// value the renderer draws, built by static constructors and chained modifiers
/// (`WireView+Modifiers.swift`), so a provider's body reads like the view it stands for.
package typealias WireView = GlimpseWidgetV1.View
package typealias WireStyle = GlimpseWidgetV1.ShapeStyle
package typealias WireColor = GlimpseWidgetV1.Color
package typealias WireFont = GlimpseWidgetV1.Font
package typealias WireShape = GlimpseWidgetV1.Shape

extension GlimpseWidgetV1.View {
    package static func text(_ content: String) -> WireView {
        WireView(kind: .text(GlimpseWidgetV1.Text(content: content)))
    }

    /// Image(_:) from the app's assets.
    package static func image(
        _ assetName: String, resizable: Bool = false, contentMode: GlimpseWidgetV1.ContentMode = .unspecified
    ) -> WireView {
        WireView(
            kind: .image(GlimpseWidgetV1.Image(assetName: assetName, resizable: resizable, contentMode: contentMode)))
    }

    /// Image(systemName:).
    package static func symbol(_ systemName: String) -> WireView {
        WireView(kind: .symbol(GlimpseWidgetV1.SymbolImage(systemName: systemName)))
    }

    package static func vstack(
        alignment: GlimpseWidgetV1.HorizontalAlignment = .center, spacing: Double? = nil, _ children: [WireView]
    ) -> WireView {
        stack(.vertical, GlimpseWidgetV1.Alignment(horizontal: alignment), spacing, children)
    }

    package static func hstack(
        alignment: GlimpseWidgetV1.VerticalAlignment = .center, spacing: Double? = nil, _ children: [WireView]
    ) -> WireView {
        stack(.horizontal, GlimpseWidgetV1.Alignment(vertical: alignment), spacing, children)
    }

    package static func zstack(_ children: [WireView]) -> WireView {
        stack(.depth, nil, nil, children)
    }

    private static func stack(
        _ axis: GlimpseWidgetV1.StackAxis, _ alignment: GlimpseWidgetV1.Alignment?, _ spacing: Double?,
        _ children: [WireView]
    ) -> WireView {
        WireView(
            kind: .stack(GlimpseWidgetV1.Stack(axis: axis, spacing: spacing, alignment: alignment, children: children)))
    }

    package static func spacer(minLength: Double? = nil) -> WireView {
        WireView(kind: .spacer(GlimpseWidgetV1.Spacer(minLength: minLength)))
    }

    package static var divider: WireView { WireView(kind: .divider) }

    package static var accessoryWidgetBackground: WireView { WireView(kind: .accessoryWidgetBackground) }

    /// Gauge(value:in:) { label } currentValueLabel: { … }.
    package static func gauge(
        value: Double, in range: ClosedRange<Double> = 0...1, style: GlimpseWidgetV1.GaugeStyle,
        label: WireView? = nil, currentValueLabel: WireView? = nil
    ) -> WireView {
        WireView(
            kind: .gauge(
                GlimpseWidgetV1.Gauge(
                    value: value, minimum: range.lowerBound, maximum: range.upperBound, label: label,
                    currentValueLabel: currentValueLabel, style: style)))
    }

    /// ProgressView(value:).
    package static func progress(
        value: Double, total: Double = 1, style: GlimpseWidgetV1.ProgressViewStyle = .linear
    ) -> WireView {
        WireView(
            kind: .progress(
                GlimpseWidgetV1.ProgressView(
                    progress: .fraction(GlimpseWidgetV1.ProgressView.Fraction(value: value, total: total)), style: style
                )))
    }

    /// Label(title, systemImage:), or Label { title } icon: { icon }.
    package static func label(_ title: WireView, icon: WireView) -> WireView {
        WireView(kind: .label(GlimpseWidgetV1.Label(title: title, icon: icon)))
    }

    package static func label(_ title: String, systemImage: String) -> WireView {
        label(.text(title), icon: .symbol(systemImage))
    }

    /// Text(timerInterval:countsDown:).
    package static func timer(_ interval: ClosedRange<Date>, countsDown: Bool = true) -> WireView {
        WireView(
            kind: .timerText(
                GlimpseWidgetV1.TimerText(
                    timerInterval: GlimpseWidgetV1.DateInterval(
                        start: .init(date: interval.lowerBound), end: .init(date: interval.upperBound)),
                    countsDown: countsDown)))
    }

    /// Text(date, style:).
    package static func date(_ date: Date, style: GlimpseWidgetV1.DateTextStyle) -> WireView {
        WireView(kind: .dateText(GlimpseWidgetV1.DateText(date: .init(date: date), style: style)))
    }

    /// Button(intent:) { label }.
    package static func button(
        intent: GlimpseWidgetV1.IntentInvocation, style: GlimpseWidgetV1.ButtonStyle = .automatic, _ label: WireView
    ) -> WireView {
        WireView(kind: .button(GlimpseWidgetV1.Button(intent: intent, label: label, style: style)))
    }

    /// Link(destination:) { label }.
    package static func link(_ destination: String, _ label: WireView) -> WireView {
        WireView(kind: .link(GlimpseWidgetV1.Link(destination: destination, label: label)))
    }

    /// A shape filled (or stroked, with `strokeWidth`) with a style.
    package static func shape(_ shape: WireShape, fill: WireStyle? = nil, strokeWidth: Double? = nil) -> WireView {
        WireView(kind: .shape(GlimpseWidgetV1.ShapeView(shape: shape, fill: fill, strokeWidth: strokeWidth)))
    }

    /// LinearGradient(gradient:startPoint:endPoint:) as a view.
    package static func gradient(
        _ stops: [(WireColor, Double)], from start: GlimpseWidgetV1.UnitPoint, to end: GlimpseWidgetV1.UnitPoint
    ) -> WireView {
        WireView(kind: .gradient(GlimpseWidgetV1.LinearGradientView(gradient: .stops(stops, from: start, to: end))))
    }
}

extension GlimpseWidgetV1.IntentInvocation {
    /// An AppIntent with its pre-set parameters, as `Button(intent: CheckInIntent())` carries it.
    package init(_ type: String, _ parameters: [String: String] = [:]) {
        self.init(
            intentType: type,
            parameters: parameters.mapValues { GlimpseWidgetV1.ParameterValue(kind: .stringValue($0)) })
    }
}
