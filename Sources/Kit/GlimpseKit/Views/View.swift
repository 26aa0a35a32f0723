public import GlimpseMessages

/// SwiftUI's `View` as a widget extension writes it: a `body` built with `@ViewBuilder`,
/// down to the views Glimpse draws (`PrimitiveView`). A view is drawn once per entry, into
/// `glimpse.widget.v1.View`, the tree glimpse-gateway renders.
public protocol View: SendableMetatype {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

/// A view that is a wire view already: Text, stacks, images, shapes, modified views. Its
/// `body` is never asked for.
public protocol PrimitiveView: View where Body == Never {
    /// The view on the wire, with its children.
    var wireView: GlimpseWidgetV1.View { get }
}

extension PrimitiveView {
    public var body: Never { return fatalError("\(Self.self) is drawn as its wireView; it has no body") }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { return fatalError("Never has no body") }
}

/// Several views where one is expected (a builder's block, `ForEach`, `Group`): a stack
/// takes them as its children; anywhere else they stand in a VStack, as at a window's root.
public protocol ViewList: PrimitiveView {
    var wireViews: [GlimpseWidgetV1.View] { get }
}

extension ViewList {
    public var wireView: GlimpseWidgetV1.View {
        wireViews.count == 1 ? wireViews[0] : .vstack(wireViews)
    }
}

/// The views of a view: one, or the several a list stands for.
func wireViews<V: View>(_ view: V) -> [WireView] {
    if let list = view as? any ViewList { return list.wireViews }
    if let primitive = view as? any PrimitiveView { return [primitive.wireView] }
    return wireViews(view.body)
}

/// The view on the wire: a composite view is drawn as its body.
func wire<V: View>(_ view: V) -> WireView {
    if let primitive = view as? any PrimitiveView { return primitive.wireView }
    return wire(view.body)
}

/// What a `@ViewBuilder` block builds: its views, drawn where they are written (the
/// environment of the entry being drawn is in effect).
public struct BuiltViews: ViewList {
    public let wireViews: [GlimpseWidgetV1.View]
    init(_ views: [WireView]) { self.wireViews = views }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> BuiltViews {
        BuiltViews(wireViews(content))
    }
    public static func buildBlock() -> BuiltViews { BuiltViews([]) }
    public static func buildBlock(_ parts: BuiltViews...) -> BuiltViews { BuiltViews(parts.flatMap(\.wireViews)) }
    public static func buildOptional(_ part: BuiltViews?) -> BuiltViews { part ?? BuiltViews([]) }
    public static func buildEither(first: BuiltViews) -> BuiltViews { first }
    public static func buildEither(second: BuiltViews) -> BuiltViews { second }
    public static func buildArray(_ parts: [BuiltViews]) -> BuiltViews { BuiltViews(parts.flatMap(\.wireViews)) }
    public static func buildLimitedAvailability(_ part: BuiltViews) -> BuiltViews { part }
}

/// A view that is its wire value: what a modifier returns, and a way down to the wire for
/// what GlimpseKit does not spell (`WireView(.text("…"))`).
public struct WireViewContent: PrimitiveView {
    public let wireView: GlimpseWidgetV1.View
    public init(_ wireView: GlimpseWidgetV1.View) { self.wireView = wireView }
}

/// `Group { … }`: its views, where the group is.
public struct Group: ViewList {
    public let wireViews: [GlimpseWidgetV1.View]
    public init(@ViewBuilder content: () -> some View) { self.wireViews = GlimpseKit.wireViews(content()) }
}

/// `EmptyView()`: nothing.
public struct EmptyView: ViewList {
    public init() {}
    public var wireViews: [GlimpseWidgetV1.View] { [] }
}

/// `ForEach(data) { item in … }`, `ForEach(data, id: \.self)`, `ForEach(0..<n)`.
public struct ForEach<Data: RandomAccessCollection>: ViewList {
    public let wireViews: [GlimpseWidgetV1.View]

    public init(_ data: Data, @ViewBuilder content: (Data.Element) -> some View) {
        self.wireViews = data.flatMap { GlimpseKit.wireViews(content($0)) }
    }

    public init<ID>(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: (Data.Element) -> some View) {
        self.init(data, content: content)
    }
}

/// `AnyView(view)`.
public struct AnyView: ViewList {
    public let wireViews: [GlimpseWidgetV1.View]
    public init(_ view: some View) { self.wireViews = GlimpseKit.wireViews(view) }
}

extension View {
    /// The view as Glimpse draws it (`glimpse.widget.v1.View`) in `environment`: for a test of
    /// a view, or a provider that answers on the wire itself.
    public func drawn(in environment: EnvironmentValues = EnvironmentValues()) -> GlimpseWidgetV1.View {
        DrawingNotes.draw(environment) { wire(self) }.view
    }
}
