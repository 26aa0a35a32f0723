import Foundation
import GlimpseMessages
import GlimpseVocabulary
import Rendering

/// View trees for tests, written the way SwiftUI reads.
typealias View = GlimpseWidgetV1.View
typealias Node = GlimpseWidgetV1.LayoutNode

/// 2026-11-24 10:42:00 UTC: a Tuesday.
let t0 = Date(timeIntervalSince1970: 1_795_516_920)

func renderer(
    now: Date = t0, device: DeviceScreen = .default, dark: Bool = false, assets: [AssetKey: AssetImage] = [:]
) -> Renderer {
    Renderer(
        environment: RenderEnvironment(device: device, now: now, colorScheme: dark ? .dark : .light, assets: assets))
}

func timestamp(_ date: Date) -> GoogleProtobuf.Timestamp {
    var t = GoogleProtobuf.Timestamp()
    t.seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    return t
}

func text(_ s: String) -> View {
    var v = View()
    v.kind = .text(GlimpseWidgetV1.Text(content: s))
    return v
}

func stack(
    _ axis: GlimpseWidgetV1.StackAxis, _ children: [View], spacing: Double? = nil,
    h: GlimpseWidgetV1.HorizontalAlignment = .center, v: GlimpseWidgetV1.VerticalAlignment = .center
) -> View {
    var s = GlimpseWidgetV1.Stack()
    s.axis = axis
    s.children = children
    s.spacing = spacing
    s.alignment = GlimpseWidgetV1.Alignment(horizontal: h, vertical: v)
    var view = View()
    view.kind = .stack(s)
    return view
}

func hstack(_ children: [View], spacing: Double? = nil, v: GlimpseWidgetV1.VerticalAlignment = .center) -> View {
    stack(.horizontal, children, spacing: spacing, v: v)
}

func vstack(_ children: [View], spacing: Double? = nil, h: GlimpseWidgetV1.HorizontalAlignment = .center) -> View {
    stack(.vertical, children, spacing: spacing, h: h)
}

func spacer(_ minLength: Double? = nil) -> View {
    var v = View()
    v.kind = .spacer(GlimpseWidgetV1.Spacer(minLength: minLength))
    return v
}

func color(_ c: GlimpseWidgetV1.SystemColor) -> GlimpseWidgetV1.ShapeStyle {
    GlimpseWidgetV1.ShapeStyle(kind: .color(GlimpseWidgetV1.Color(value: .system(c))))
}

func rectangle(_ fill: GlimpseWidgetV1.SystemColor = .blue) -> View {
    var v = View()
    v.kind = .shape(GlimpseWidgetV1.ShapeView(shape: GlimpseWidgetV1.Shape(kind: .rectangle), fill: color(fill)))
    return v
}

func image(_ name: String, resizable: Bool = false, mode: GlimpseWidgetV1.ContentMode = .unspecified) -> View {
    var v = View()
    v.kind = .image(GlimpseWidgetV1.Image(assetName: name, resizable: resizable, contentMode: mode))
    return v
}

func symbol(_ name: String) -> View {
    var v = View()
    v.kind = .symbol(GlimpseWidgetV1.SymbolImage(systemName: name))
    return v
}

func font(
    _ style: GlimpseWidgetV1.FontTextStyle, weight: GlimpseWidgetV1.FontWeight = .unspecified
) -> GlimpseWidgetV1.Modifier.Kind {
    var f = GlimpseWidgetV1.Font()
    f.textStyle = style
    f.weight = weight
    return .font(f)
}

func frame(
    width: Double? = nil, height: Double? = nil, maxWidth: Double? = nil, maxHeight: Double? = nil,
    alignment: GlimpseWidgetV1.Alignment? = nil
) -> GlimpseWidgetV1.Modifier.Kind {
    var f = GlimpseWidgetV1.Frame()
    f.width = width
    f.height = height
    f.maxWidth = maxWidth
    f.maxHeight = maxHeight
    f.alignment = alignment
    return .frame(f)
}

func padding(_ length: Double? = nil, _ edges: GlimpseWidgetV1.Edge = .all) -> GlimpseWidgetV1.Modifier.Kind {
    .padding(GlimpseWidgetV1.Padding(edges: edges, length: length))
}

extension View {
    func with(_ kinds: GlimpseWidgetV1.Modifier.Kind...) -> View {
        var copy = self
        copy.modifiers += kinds.map { GlimpseWidgetV1.Modifier(kind: $0) }
        return copy
    }

    func id(_ id: String) -> View {
        var copy = self
        copy.id = id
        return copy
    }
}

extension Node {
    /// Depth first, this node included.
    var all: [Node] { [self] + children.flatMap(\.all) }

    func first(_ predicate: (Node) -> Bool) -> Node? { all.first(where: predicate) }

    func node(id: String) -> Node? { first { $0.id == id } }

    func node(text: String) -> Node? { first { $0.text == text } }

    func node(name: String) -> Node? { first { $0.name == name } }

    var x: Double { frame?.x ?? 0 }
    var y: Double { frame?.y ?? 0 }
    var width: Double { frame?.width ?? 0 }
    var height: Double { frame?.height ?? 0 }
    var maxX: Double { x + width }
    var maxY: Double { y + height }
}

extension GlimpseWidgetV1.Layout {
    var tree: Node { root ?? Node() }
}

/// Close enough for floating point layout arithmetic.
func near(_ a: Double, _ b: Double, _ tolerance: Double = 0.01) -> Bool { abs(a - b) <= tolerance }
