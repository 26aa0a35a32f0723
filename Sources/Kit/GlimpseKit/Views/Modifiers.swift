public import Foundation
public import GlimpseMessages

/// SwiftUI's modifiers: each appends one wire modifier to the view, in the order written
/// (padding then background differs from background then padding, as in SwiftUI).
extension View {
    func modified(_ change: (WireView) -> WireView) -> WireViewContent { WireViewContent(change(wire(self))) }
    func modifier(_ kind: GlimpseWidgetV1.Modifier.Kind) -> WireViewContent { modified { $0.modifier(kind) } }

    /// A change to the view's own kind (a button's style, an image's content mode); nil from
    /// `change` leaves a view of another kind as it is, as SwiftUI ignores such a modifier.
    func restyled(_ change: (GlimpseWidgetV1.View.Kind) -> GlimpseWidgetV1.View.Kind?) -> WireViewContent {
        modified { view in
            guard let kind = view.kind, let changed = change(kind) else { return view }
            var view = view
            view.kind = changed
            return view
        }
    }

    /// `.id(_:)`: the name a script taps the view by (`glimpse tap <placement> <id>`).
    public func id(_ id: some CustomStringConvertible) -> WireViewContent { modified { $0.id(id.description) } }

    public func font(_ font: Font?) -> WireViewContent {
        font.map { modifier(.font($0.wire)) } ?? WireViewContent(wire(self))
    }
    public func fontWeight(_ weight: Font.Weight?) -> WireViewContent {
        weight.map { modifier(.fontWeight($0.wire)) } ?? WireViewContent(wire(self))
    }
    public func bold(_ isActive: Bool = true) -> WireViewContent {
        isActive ? modifier(.fontWeight(.bold)) : WireViewContent(wire(self))
    }
    public func foregroundStyle(_ style: some ShapeStyle) -> WireViewContent {
        modifier(.foregroundStyle(style.wireStyle))
    }
    public func foregroundColor(_ color: Color?) -> WireViewContent {
        color.map { modifier(.foregroundStyle($0.wireStyle)) } ?? WireViewContent(wire(self))
    }
    public func tint(_ style: some ShapeStyle) -> WireViewContent { modifier(.tint(style.wireStyle)) }
    public func background(_ style: some ShapeStyle) -> WireViewContent { modifier(.background(style.wireStyle)) }
    public func opacity(_ value: Double) -> WireViewContent { modifier(.opacity(value)) }
    public func lineLimit(_ lines: Int?) -> WireViewContent { modifier(.lineLimit(Int32(clamping: lines ?? 0))) }
    public func minimumScaleFactor(_ factor: Double) -> WireViewContent { modifier(.minimumScaleFactor(factor)) }
    public func monospacedDigit() -> WireViewContent { modifier(.monospacedDigit(true)) }
    public func multilineTextAlignment(_ alignment: TextAlignment) -> WireViewContent {
        modifier(.multilineTextAlignment(alignment.wire))
    }
    public func cornerRadius(_ radius: Double) -> WireViewContent { modifier(.cornerRadius(radius)) }
    public func clipShape(_ shape: some Shape) -> WireViewContent { modifier(.clipShape(shape.wireShape)) }
    /// `.mask(RoundedRectangle(cornerRadius: 10))`: the shape's outline clips the view.
    public func mask(_ shape: some Shape) -> WireViewContent { modifier(.mask(shape.wireShape)) }
    /// `.mask(RoundedRectangle(cornerRadius: 10).frame(…))`: a shape's outline, however framed,
    /// clips the view; a mask that is not a shape is not drawn (the view stays whole).
    public func mask(_ mask: some View) -> WireViewContent {
        guard case .shape(let shape)? = wire(mask).kind else { return WireViewContent(wire(self)) }
        return modifier(.mask(shape.shape ?? .rectangle))
    }
    public func mask(alignment: Alignment = .center, @ViewBuilder _ mask: () -> some View) -> WireViewContent {
        self.mask(mask())
    }
    public func scaleEffect(_ scale: Double) -> WireViewContent {
        modifier(.scaleEffect(GlimpseWidgetV1.ScaleEffect(x: scale, y: scale)))
    }
    public func scaleEffect(x: Double = 1, y: Double = 1) -> WireViewContent {
        modifier(.scaleEffect(GlimpseWidgetV1.ScaleEffect(x: x, y: y)))
    }
    public func widgetAccentable(_ accentable: Bool = true) -> WireViewContent {
        modifier(.widgetAccentable(accentable))
    }
    public func accessibilityLabel(_ label: some StringProtocol) -> WireViewContent {
        modifier(.accessibilityLabel(String(label)))
    }
    /// `.accessibilityElement(children: .combine)`: how VoiceOver groups the children. Glimpse
    /// reads `accessibilityLabel`s and texts as they are; the grouping is accepted, not drawn.
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> WireViewContent {
        WireViewContent(wire(self))
    }
    public func invalidatableContent(_ invalidatable: Bool = true) -> WireViewContent {
        modifier(.invalidatableContent(invalidatable))
    }
    public func privacySensitive(_ sensitive: Bool = true) -> WireViewContent { modifier(.privacySensitive(sensitive)) }
    public func unredacted() -> WireViewContent { modifier(.redacted(.unspecified)) }
    public func activityBackgroundTint(_ color: Color?) -> WireViewContent {
        color.map { modifier(.activityBackgroundTint($0.wireStyle)) } ?? WireViewContent(wire(self))
    }

    /// `.padding()`, `.padding(16)`, `.padding(.horizontal, 12)`, `.padding([.top, .bottom])`.
    public func padding(_ edges: Edge.Set = .all, _ length: Double? = nil) -> WireViewContent {
        modified { view in
            edges.wire.reduce(view) { view, edge in
                view.modifier(.padding(GlimpseWidgetV1.Padding(edges: edge, length: length)))
            }
        }
    }
    public func padding(_ length: Double) -> WireViewContent { padding(.all, length) }

    public func frame(width: Double? = nil, height: Double? = nil, alignment: Alignment = .center) -> WireViewContent {
        modifier(
            .frame(
                GlimpseWidgetV1.Frame(
                    width: width, height: height, alignment: alignment == .center ? nil : alignment.wire)))
    }

    public func frame(
        minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil,
        idealHeight: Double? = nil, maxHeight: Double? = nil, alignment: Alignment = .center
    ) -> WireViewContent {
        modifier(
            .frame(
                GlimpseWidgetV1.Frame(
                    minWidth: minWidth, maxWidth: maxWidth, minHeight: minHeight, maxHeight: maxHeight,
                    alignment: alignment == .center ? nil : alignment.wire)))
    }

    /// `.aspectRatio(contentMode:)`, `.scaledToFill()`, `.scaledToFit()`: how a resizable
    /// image fills its frame (other views are drawn as they are).
    public func aspectRatio(_ ratio: Double? = nil, contentMode: ContentMode) -> WireViewContent {
        restyled { kind in
            guard case .image(var image) = kind else { return nil }
            image.contentMode = contentMode.wire
            return .image(image)
        }
    }
    public func scaledToFill() -> WireViewContent { aspectRatio(contentMode: .fill) }
    public func scaledToFit() -> WireViewContent { aspectRatio(contentMode: .fit) }

    /// `.containerBackground(.fill.tertiary, for: .widget)`.
    public func containerBackground(
        _ style: some ShapeStyle, for placement: ContainerBackgroundPlacement
    )
        -> WireViewContent
    {
        modified { $0.containerBackground(style.wireStyle) }
    }

    /// `.containerBackground(for: .widget) { }`: the system's background.
    public func containerBackground(
        for placement: ContainerBackgroundPlacement, @ViewBuilder content: () -> some View
    ) -> WireViewContent {
        modified { $0.containerBackground(nil) }
    }

    /// `.widgetURL(_:)`: where a tap outside the widget's controls opens the app.
    public func widgetURL(_ url: URL?) -> WireViewContent {
        if let url { DrawingNotes.current?.setWidgetURL(url.absoluteString) }
        return WireViewContent(wire(self))
    }

    /// `.dynamicIsland(verticalPlacement: .belowIfTooWide)`: an expanded leading or trailing
    /// region that does not fit beside the camera moves below it.
    public func dynamicIsland(verticalPlacement: DynamicIslandExpandedRegionVerticalPlacement) -> WireViewContent {
        DrawingNotes.current?.setBelowIfTooWide()
        return WireViewContent(wire(self))
    }

    /// `.keylineTint(_:)`, `.activitySystemActionForegroundColor(_:)`: accepted on a view,
    /// not drawn (the island's keyline is `DynamicIsland.keylineTint`).
    public func activitySystemActionForegroundColor(_ color: Color?) -> WireViewContent { WireViewContent(wire(self)) }

    /// `.overlay(.blue)`: the style over the view's whole frame, drawn as the frame filled
    /// and the content in the same style (alike for an opaque style).
    public func overlay(_ style: some ShapeStyle) -> WireViewContent {
        modified { $0.modifier(.background(style.wireStyle)).modifier(.foregroundStyle(style.wireStyle)) }
    }

    /// `.overlay { … }`, `.overlay(alignment:) { … }`: a view drawn over this one (in a ZStack:
    /// an overlay that takes all the space it is offered makes the pair that large).
    public func overlay(alignment: Alignment = .center, @ViewBuilder content: () -> some View) -> WireViewContent {
        WireViewContent(.zstack([wire(self)] + wireViews(content()), alignment: alignment))
    }

    /// `.background { … }`: a view drawn behind this one; a plain color or style is the
    /// `.background(_:)` modifier, anything else a ZStack behind it (as `.overlay { … }`).
    public func background(alignment: Alignment = .center, @ViewBuilder content: () -> some View) -> WireViewContent {
        let behind = wireViews(content())
        guard behind.count == 1, case .shape(let shape)? = behind[0].kind, let fill = shape.fill,
            shape.shape?.kind == .rectangle || shape.shape == nil, behind[0].modifiers.isEmpty
        else {
            return WireViewContent(.zstack(behind + [wire(self)], alignment: alignment))
        }
        return modifier(.background(fill))
    }

    public func buttonStyle(_ style: ButtonStyle) -> WireViewContent {
        restyled { kind in
            guard case .button(var button) = kind else { return nil }
            button.style = style.wire
            return .button(button)
        }
    }

    public func gaugeStyle(_ style: GaugeStyle) -> WireViewContent {
        restyled { kind in
            guard case .gauge(var gauge) = kind else { return nil }
            gauge.style = style.wire
            return .gauge(gauge)
        }
    }

    public func progressViewStyle(_ style: ProgressViewStyle) -> WireViewContent {
        restyled { kind in
            guard case .progress(var progress) = kind else { return nil }
            progress.style = style.wire
            return .progress(progress)
        }
    }
}

public enum AccessibilityChildBehavior: Sendable {
    case ignore, contain, combine
}

public enum DynamicIslandExpandedRegionVerticalPlacement: Sendable {
    case belowIfTooWide
}

public enum ContainerBackgroundPlacement: Sendable {
    case widget
}

/// The shapes: views, clip shapes and masks.
public protocol Shape: PrimitiveView {
    var wireShape: GlimpseWidgetV1.Shape { get }
}

extension Shape {
    public var wireView: GlimpseWidgetV1.View { .shape(wireShape) }
    public func fill(_ style: some ShapeStyle) -> WireViewContent {
        WireViewContent(.shape(wireShape, fill: style.wireStyle))
    }
    public func stroke(_ style: some ShapeStyle, lineWidth: Double = 1) -> WireViewContent {
        WireViewContent(.shape(wireShape, fill: style.wireStyle, strokeWidth: lineWidth))
    }
}

/// `StrokeStyle(lineWidth:dash:)`: the width is drawn; dashes are drawn solid.
public struct StrokeStyle: Sendable {
    public var lineWidth: Double
    public var dash: [Double]
    public init(lineWidth: Double = 1, dash: [Double] = []) {
        self.lineWidth = lineWidth
        self.dash = dash
    }
}

extension Shape {
    public func stroke(_ style: some ShapeStyle, style stroke: StrokeStyle) -> WireViewContent {
        self.stroke(style, lineWidth: stroke.lineWidth)
    }
    public func strokeBorder(_ style: some ShapeStyle, lineWidth: Double = 1) -> WireViewContent {
        self.stroke(style, lineWidth: lineWidth)
    }
}

public struct Rectangle: Shape {
    public init() {}
    public var wireShape: GlimpseWidgetV1.Shape { .rectangle }
}

public struct RoundedRectangle: Shape {
    public let cornerRadius: Double
    public init(cornerRadius: Double) { self.cornerRadius = cornerRadius }
    public var wireShape: GlimpseWidgetV1.Shape { .roundedRectangle(cornerRadius: cornerRadius) }
}

public struct Circle: Shape {
    public init() {}
    public var wireShape: GlimpseWidgetV1.Shape { .circle }
}

public struct Capsule: Shape {
    public init() {}
    public var wireShape: GlimpseWidgetV1.Shape { .capsule }
}

public struct Ellipse: Shape {
    public init() {}
    public var wireShape: GlimpseWidgetV1.Shape { GlimpseWidgetV1.Shape(kind: .ellipse) }
}

/// `ContainerRelativeShape()`: the widget's own corner shape.
public struct ContainerRelativeShape: Shape {
    public init() {}
    public var wireShape: GlimpseWidgetV1.Shape { GlimpseWidgetV1.Shape(kind: .containerRelative) }
}

extension Shape where Self == Circle {
    public static var circle: Circle { Circle() }
}

extension Shape where Self == Capsule {
    public static var capsule: Capsule { Capsule() }
}

extension Shape where Self == Rectangle {
    public static var rect: Rectangle { Rectangle() }
}

extension Shape where Self == RoundedRectangle {
    public static func rect(cornerRadius: Double) -> RoundedRectangle { RoundedRectangle(cornerRadius: cornerRadius) }
}

extension Shape where Self == ContainerRelativeShape {
    public static var containerRelative: ContainerRelativeShape { ContainerRelativeShape() }
}
