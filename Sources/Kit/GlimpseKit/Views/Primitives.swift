public import Foundation
public import GlimpseMessages

/// `Text("…")`, `Text(date, style: .time)`, `Text(timerInterval:countsDown:)`.
public struct Text: PrimitiveView, Sendable {
    public let wireView: GlimpseWidgetV1.View

    public init(_ content: some StringProtocol) { wireView = .text(String(content)) }
    public init(verbatim content: String) { wireView = .text(content) }

    public enum DateStyle: Sendable {
        case time, date, relative, offset, timer
        var wire: GlimpseWidgetV1.DateTextStyle {
            switch self {
            case .time: .time
            case .date: .date
            case .relative: .relative
            case .offset: .offset
            case .timer: .timer
            }
        }
    }

    public init(_ date: Date, style: DateStyle) { wireView = .date(date, style: style.wire) }

    public init(
        timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true
    ) {
        var view = WireView.timer(timerInterval, countsDown: countsDown)
        if !showsHours, case .timerText(var timer)? = view.kind {
            timer.showsHours = false
            view.kind = .timerText(timer)
        }
        wireView = view
    }

    init(wire: WireView) { wireView = wire }

    // Text's own modifiers keep it a Text, as SwiftUI's do.
    public func font(_ font: Font?) -> Text { font.map { Text(wire: wireView.font($0.wire)) } ?? self }
    public func bold() -> Text { Text(wire: wireView.bold()) }
    public func fontWeight(_ weight: Font.Weight?) -> Text {
        weight.map { Text(wire: wireView.fontWeight($0.wire)) } ?? self
    }
    public func foregroundColor(_ color: Color?) -> Text {
        color.map { Text(wire: wireView.foregroundColor($0.value)) } ?? self
    }
    public func foregroundStyle(_ style: some ShapeStyle) -> Text {
        Text(wire: wireView.foregroundStyle(style.wireStyle))
    }
    public func monospacedDigit() -> Text { Text(wire: wireView.monospacedDigit()) }
}

/// `Image("asset")`, `Image(systemName:)`; `.resizable()` keeps it an Image.
public struct Image: PrimitiveView, Sendable {
    public private(set) var wireView: GlimpseWidgetV1.View

    public init(_ name: String) { wireView = .image(name) }
    public init(systemName: String) { wireView = .symbol(systemName) }

    public func resizable() -> Image {
        var image = self
        if case .image(var asset)? = image.wireView.kind {
            asset.resizable = true
            image.wireView.kind = .image(asset)
        }
        return image
    }
}

extension GlimpseWidgetV1.View {
    /// A ZStack aligned as asked; centred (the default) carries no alignment, as the wire
    /// constructors write it.
    static func zstack(_ children: [WireView], alignment: Alignment) -> WireView {
        var view = WireView.zstack(children)
        if alignment != .center, case .stack(var stack)? = view.kind {
            stack.alignment = alignment.wire
            view.kind = .stack(stack)
        }
        return view
    }
}

/// `VStack(alignment:spacing:) { … }`.
public struct VStack: PrimitiveView {
    public let wireView: GlimpseWidgetV1.View
    public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> some View)
    {
        wireView = .vstack(alignment: alignment.wire, spacing: spacing, wireViews(content()))
    }
}

/// `HStack(alignment:spacing:) { … }`.
public struct HStack: PrimitiveView {
    public let wireView: GlimpseWidgetV1.View
    public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> some View) {
        wireView = .hstack(alignment: alignment.wire, spacing: spacing, wireViews(content()))
    }
}

/// `ZStack(alignment:) { … }`.
public struct ZStack: PrimitiveView {
    public let wireView: GlimpseWidgetV1.View
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> some View) {
        wireView = .zstack(wireViews(content()), alignment: alignment)
    }
}

public struct Spacer: PrimitiveView {
    public let wireView: GlimpseWidgetV1.View
    public init(minLength: Double? = nil) { wireView = .spacer(minLength: minLength) }
}

public struct Divider: PrimitiveView {
    public init() {}
    public var wireView: GlimpseWidgetV1.View { .divider }
}

/// `AccessoryWidgetBackground()`: the Lock Screen widget's backdrop.
public struct AccessoryWidgetBackground: PrimitiveView {
    public init() {}
    public var wireView: GlimpseWidgetV1.View { .accessoryWidgetBackground }
}

/// `Label("Title", systemImage:)`, `Label { title } icon: { icon }`.
public struct Label: PrimitiveView {
    public let wireView: GlimpseWidgetV1.View
    public init(_ title: some StringProtocol, systemImage: String) {
        wireView = .label(String(title), systemImage: systemImage)
    }
    public init(_ title: some StringProtocol, image: String) {
        wireView = .label(.text(String(title)), icon: .image(image))
    }
    public init(@ViewBuilder title: () -> some View, @ViewBuilder icon: () -> some View) {
        wireView = .label(wire(title()), icon: wire(icon()))
    }
}

/// `Gauge(value:in:) { label } currentValueLabel: { … }` with `.gaugeStyle(_:)`.
public struct Gauge: PrimitiveView {
    public private(set) var wireView: GlimpseWidgetV1.View

    /// An empty label (`{ EmptyView() }`) is no label: the gauge alone.
    public init(value: Double, in range: ClosedRange<Double> = 0...1, @ViewBuilder label: () -> some View) {
        let label = wireViews(label())
        wireView = .gauge(
            value: value, in: range, style: .automatic, label: label.isEmpty ? nil : wire(BuiltViews(label)))
    }

    public init(
        value: Double, in range: ClosedRange<Double> = 0...1, @ViewBuilder label: () -> some View,
        @ViewBuilder currentValueLabel: () -> some View
    ) {
        wireView = .gauge(
            value: value, in: range, style: .automatic, label: wire(label()),
            currentValueLabel: wire(currentValueLabel()))
    }

    public init(
        value: Double, in range: ClosedRange<Double> = 0...1, @ViewBuilder label: () -> some View,
        @ViewBuilder currentValueLabel: () -> some View, @ViewBuilder minimumValueLabel: () -> some View,
        @ViewBuilder maximumValueLabel: () -> some View
    ) {
        self.init(value: value, in: range, label: label, currentValueLabel: currentValueLabel)
        if case .gauge(var gauge)? = wireView.kind {
            gauge.minimumValueLabel = wire(minimumValueLabel())
            gauge.maximumValueLabel = wire(maximumValueLabel())
            wireView.kind = .gauge(gauge)
        }
    }
}

/// The gauge styles the Lock Screen draws.
public struct GaugeStyle: Sendable {
    let wire: GlimpseWidgetV1.GaugeStyle
    public static let automatic = GaugeStyle(wire: .automatic)
    public static let accessoryCircular = GaugeStyle(wire: .accessoryCircular)
    public static let accessoryCircularCapacity = GaugeStyle(wire: .accessoryCircularCapacity)
    public static let accessoryLinear = GaugeStyle(wire: .accessoryLinear)
    public static let accessoryLinearCapacity = GaugeStyle(wire: .accessoryLinearCapacity)
    public static let linearCapacity = GaugeStyle(wire: .linearCapacity)
}

/// `ProgressView(value:total:)`, `ProgressView(timerInterval:countsDown:)`.
public struct ProgressView: PrimitiveView {
    public private(set) var wireView: GlimpseWidgetV1.View

    public init(value: Double?, total: Double = 1) { wireView = .progress(value: value ?? 0, total: total) }

    public init(value: Double?, total: Double = 1, @ViewBuilder label: () -> some View) {
        self.init(value: value, total: total)
        setLabel(wire(label()))
    }

    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {
        wireView = WireView(
            kind: .progress(
                GlimpseWidgetV1.ProgressView(
                    progress: .timerInterval(
                        GlimpseWidgetV1.DateInterval(
                            start: .init(date: timerInterval.lowerBound), end: .init(date: timerInterval.upperBound))),
                    countsDown: countsDown)))
    }

    private mutating func setLabel(_ label: WireView) {
        if case .progress(var progress)? = wireView.kind {
            progress.label = label
            wireView.kind = .progress(progress)
        }
    }
}

/// The progress styles.
public struct ProgressViewStyle: Sendable {
    let wire: GlimpseWidgetV1.ProgressViewStyle
    public static let automatic = ProgressViewStyle(wire: .automatic)
    public static let linear = ProgressViewStyle(wire: .linear)
    public static let circular = ProgressViewStyle(wire: .circular)
}

/// `Link(destination:) { label }`: opens the URL in the app.
public struct Link: PrimitiveView {
    public let wireView: GlimpseWidgetV1.View
    public init(destination: URL, @ViewBuilder label: () -> some View) {
        wireView = .link(destination.absoluteString, wire(label()))
    }
    public init(_ title: some StringProtocol, destination: URL) {
        wireView = .link(destination.absoluteString, .text(String(title)))
    }
}

/// `Button(intent:) { label }`: a tap runs the intent's `perform()` in the app.
public struct Button: PrimitiveView {
    public private(set) var wireView: GlimpseWidgetV1.View

    public init(intent: some AppIntent, @ViewBuilder label: () -> some View) {
        wireView = .button(intent: IntentRegistry.invocation(intent), wire(label()))
    }

    public init(_ title: some StringProtocol, intent: some AppIntent) {
        wireView = .button(intent: IntentRegistry.invocation(intent), .text(String(title)))
    }

    public init(_ title: some StringProtocol, systemImage: String, intent: some AppIntent) {
        wireView = .button(intent: IntentRegistry.invocation(intent), .label(String(title), systemImage: systemImage))
    }
}

extension Button {
    /// `Button(action:) { label }`: a widget runs no closure (only an intent's `perform()`):
    /// the label is drawn, and a tap opens the app, as on a phone.
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> some View) {
        wireView = wire(label())
    }

    public init(_ title: some StringProtocol, action: @escaping () -> Void) {
        wireView = .text(String(title))
    }
}

/// The button styles.
public struct ButtonStyle: Sendable {
    let wire: GlimpseWidgetV1.ButtonStyle
    public static let automatic = ButtonStyle(wire: .automatic)
    public static let plain = ButtonStyle(wire: .plain)
    public static let bordered = ButtonStyle(wire: .bordered)
    public static let borderedProminent = ButtonStyle(wire: .borderedProminent)
}

/// `Toggle(isOn:intent:) { label }`: a tap runs the intent; the switch shows `isOn`.
public struct Toggle: PrimitiveView {
    public let wireView: GlimpseWidgetV1.View

    public init(isOn: Bool, intent: some AppIntent, @ViewBuilder label: () -> some View) {
        wireView = WireView(
            kind: .toggle(
                GlimpseWidgetV1.Toggle(intent: IntentRegistry.invocation(intent), isOn: isOn, label: wire(label()))))
    }

    public init(_ title: some StringProtocol, isOn: Bool, intent: some AppIntent) {
        self.init(isOn: isOn, intent: intent) { Text(title) }
    }
}
