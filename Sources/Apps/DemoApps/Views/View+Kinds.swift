import Foundation
import GlimpseMessages

/// The wire's view tree, spelled the way the articles' SwiftUI spells it. Not SwiftUI: a
/// value the renderer draws, built by static constructors and chained modifiers
/// (`View+Modifiers.swift`), so a provider's body reads like the view it stands for.
typealias View = GlimpseWidgetV1.View
typealias Style = GlimpseWidgetV1.ShapeStyle
typealias Color = GlimpseWidgetV1.Color
typealias Font = GlimpseWidgetV1.Font
typealias Shape = GlimpseWidgetV1.Shape

extension GlimpseWidgetV1.View {
    static func text(_ content: String) -> View {
        View(kind: .text(GlimpseWidgetV1.Text(content: content)))
    }

    /// Image(_:) from the app's assets.
    static func image(
        _ assetName: String, resizable: Bool = false, contentMode: GlimpseWidgetV1.ContentMode = .unspecified
    ) -> View {
        View(kind: .image(GlimpseWidgetV1.Image(assetName: assetName, resizable: resizable, contentMode: contentMode)))
    }

    /// Image(systemName:).
    static func symbol(_ systemName: String) -> View {
        View(kind: .symbol(GlimpseWidgetV1.SymbolImage(systemName: systemName)))
    }

    static func vstack(
        alignment: GlimpseWidgetV1.HorizontalAlignment = .center, spacing: Double? = nil, _ children: [View]
    ) -> View {
        stack(.vertical, GlimpseWidgetV1.Alignment(horizontal: alignment), spacing, children)
    }

    static func hstack(
        alignment: GlimpseWidgetV1.VerticalAlignment = .center, spacing: Double? = nil, _ children: [View]
    ) -> View {
        stack(.horizontal, GlimpseWidgetV1.Alignment(vertical: alignment), spacing, children)
    }

    static func zstack(_ children: [View]) -> View {
        stack(.depth, nil, nil, children)
    }

    private static func stack(
        _ axis: GlimpseWidgetV1.StackAxis, _ alignment: GlimpseWidgetV1.Alignment?, _ spacing: Double?,
        _ children: [View]
    ) -> View {
        View(
            kind: .stack(GlimpseWidgetV1.Stack(axis: axis, spacing: spacing, alignment: alignment, children: children)))
    }

    static func spacer(minLength: Double? = nil) -> View {
        View(kind: .spacer(GlimpseWidgetV1.Spacer(minLength: minLength)))
    }

    static var divider: View { View(kind: .divider) }

    static var accessoryWidgetBackground: View { View(kind: .accessoryWidgetBackground) }

    /// Gauge(value:in:) { label } currentValueLabel: { … }.
    static func gauge(
        value: Double, in range: ClosedRange<Double> = 0...1, style: GlimpseWidgetV1.GaugeStyle,
        label: View? = nil, currentValueLabel: View? = nil
    ) -> View {
        View(
            kind: .gauge(
                GlimpseWidgetV1.Gauge(
                    value: value, minimum: range.lowerBound, maximum: range.upperBound, label: label,
                    currentValueLabel: currentValueLabel, style: style)))
    }

    /// ProgressView(value:).
    static func progress(value: Double, total: Double = 1, style: GlimpseWidgetV1.ProgressViewStyle = .linear) -> View {
        View(
            kind: .progress(
                GlimpseWidgetV1.ProgressView(
                    progress: .fraction(GlimpseWidgetV1.ProgressView.Fraction(value: value, total: total)), style: style
                )))
    }

    /// Label(title, systemImage:), or Label { title } icon: { icon }.
    static func label(_ title: View, icon: View) -> View {
        View(kind: .label(GlimpseWidgetV1.Label(title: title, icon: icon)))
    }

    static func label(_ title: String, systemImage: String) -> View {
        label(.text(title), icon: .symbol(systemImage))
    }

    /// Text(timerInterval:countsDown:).
    static func timer(_ interval: ClosedRange<Date>, countsDown: Bool = true) -> View {
        View(
            kind: .timerText(
                GlimpseWidgetV1.TimerText(
                    timerInterval: GlimpseWidgetV1.DateInterval(
                        start: .init(date: interval.lowerBound), end: .init(date: interval.upperBound)),
                    countsDown: countsDown)))
    }

    /// Text(date, style:).
    static func date(_ date: Date, style: GlimpseWidgetV1.DateTextStyle) -> View {
        View(kind: .dateText(GlimpseWidgetV1.DateText(date: .init(date: date), style: style)))
    }

    /// Button(intent:) { label }.
    static func button(
        intent: GlimpseWidgetV1.IntentInvocation, style: GlimpseWidgetV1.ButtonStyle = .automatic, _ label: View
    ) -> View {
        View(kind: .button(GlimpseWidgetV1.Button(intent: intent, label: label, style: style)))
    }

    /// Link(destination:) { label }.
    static func link(_ destination: String, _ label: View) -> View {
        View(kind: .link(GlimpseWidgetV1.Link(destination: destination, label: label)))
    }

    /// A shape filled (or stroked, with `strokeWidth`) with a style.
    static func shape(_ shape: Shape, fill: Style? = nil, strokeWidth: Double? = nil) -> View {
        View(kind: .shape(GlimpseWidgetV1.ShapeView(shape: shape, fill: fill, strokeWidth: strokeWidth)))
    }

    /// LinearGradient(gradient:startPoint:endPoint:) as a view.
    static func gradient(
        _ stops: [(Color, Double)], from start: GlimpseWidgetV1.UnitPoint, to end: GlimpseWidgetV1.UnitPoint
    ) -> View {
        View(kind: .gradient(GlimpseWidgetV1.LinearGradientView(gradient: .stops(stops, from: start, to: end))))
    }
}

extension GlimpseWidgetV1.IntentInvocation {
    /// An AppIntent with its pre-set parameters, as `Button(intent: CheckInIntent())` carries it.
    init(_ type: String, _ parameters: [String: String] = [:]) {
        self.init(
            intentType: type,
            parameters: parameters.mapValues { GlimpseWidgetV1.ParameterValue(kind: .stringValue($0)) })
    }
}
