internal import Foundation
package import GlimpseMessages
internal import GlimpseVocabulary
internal import ProtoMapping

/// The renderer: view trees laid out at the device's real point sizes (spec §2, §6), as a
/// `Layout` tree that the text and SVG outputs draw from.
///
/// Invariants:
/// - I/O-free and deterministic: the same views, environment and clock give the same
///   layout, bit for bit; nothing reads the wall clock (timers, dates, progress by interval
///   and staleness read `environment.now`).
/// - Layout follows SwiftUI's proposal model (`Node`): a parent proposes, the child answers
///   its size, the parent places it; every frame in the output is absolute, in points, from
///   the canvas's top-left corner.
/// - A widget is laid out at its family's size on the device: 16-pt content margins on
///   system families, none on accessories; its container background fills the whole widget.
/// - Each view's own node carries its path ("0" the root, "0.2" the root stack's third
///   child, as taps name them) and `.id`; modifiers never add a node except `background`,
///   a second clip ("clip") and the system's parts ("widget", "region", "island"…).
/// - Colors are resolved (appearance, then rendering mode) before they reach a node.
/// - Images name their asset as "bundle/name" (`AssetKey.nodeName`).
package struct Renderer: Sendable {
    package var environment: RenderEnvironment

    package init(environment: RenderEnvironment) {
        self.environment = environment
    }

    /// One placed widget at its family's size; `widget.placeholder` or no entry -> redacted
    /// placeholder. mode .unspecified: fullColor for system families, vibrant for accessories.
    package func widget(
        _ widget: GlimpseGatewayV1.Widget, mode: GlimpseWidgetV1.WidgetRenderingMode = .unspecified
    ) -> GlimpseWidgetV1.Layout {
        let family = Self.family(widget.family)
        let size = widgetSize(family)
        let node = widgetNode(widget, mode: mode, at: Rect(x: 0, y: 0, width: size.width, height: size.height))
        return layout("widget \(widget.placementId)", size: size, mode: resolvedMode(mode, family), root: node)
    }

    /// A bare view at a family's size (for tests, goldens, `glimpse verify`).
    package func view(
        _ view: GlimpseWidgetV1.View, family: GlimpseWidgetV1.WidgetFamily, bundleID: String = "",
        widgetURL: String = "",
        redacted: Bool = false, mode: GlimpseWidgetV1.WidgetRenderingMode = .unspecified
    ) -> GlimpseWidgetV1.Layout {
        let fam = Self.family(family)
        let size = widgetSize(fam)
        let node = widgetContent(
            view, family: fam, bundleID: bundleID, widgetURL: widgetURL, redacted: redacted, mode: mode,
            rect: Rect(x: 0, y: 0, width: size.width, height: size.height), name: fam.rawValue)
        return layout("view \(fam.rawValue)", size: size, mode: resolvedMode(mode, fam), root: node)
    }

    /// Asset names an entry's view tree uses (so the caller can resolve them first).
    package static func assetNames(in view: GlimpseWidgetV1.View) -> Set<String> {
        view.assetNames
    }

    // MARK: Shared by the screens

    func layout(
        _ target: String, size: Size, mode: GlimpseWidgetV1.WidgetRenderingMode, root: GlimpseWidgetV1.LayoutNode,
        dark: Bool? = nil
    ) -> GlimpseWidgetV1.Layout {
        var layout = GlimpseWidgetV1.Layout()
        layout.target = target
        layout.size = GlimpseWidgetV1.DisplaySize(width: size.width, height: size.height)
        layout.renderingMode = mode
        layout.dark = dark ?? environment.isDark
        layout.root = root
        return layout
    }

    /// The family a wire value names (ProtoMapping's one mapping); an unspecified or unknown
    /// one is drawn as systemSmall rather than not at all.
    static func family(_ wire: GlimpseWidgetV1.WidgetFamily) -> WidgetFamily {
        (try? WidgetFamily(wire, field: "family")) ?? .systemSmall
    }

    /// The family's size here; a family the device lacks takes the nearest device's size
    /// (accessories on iPad: the default iPhone's; extra large on iPhone: the iPad's).
    func widgetSize(_ family: WidgetFamily) -> Size {
        let size =
            environment.device.displaySize(of: family) ?? DeviceScreen.default.displaySize(of: family)
            ?? DeviceScreen.iPad1024x1366.displaySize(of: family) ?? DisplaySize(width: 158, height: 158)
        return Size(width: size.width, height: size.height)
    }

    func resolvedMode(
        _ mode: GlimpseWidgetV1.WidgetRenderingMode, _ family: WidgetFamily
    ) -> GlimpseWidgetV1.WidgetRenderingMode {
        switch mode {
        case .fullColor, .accented, .vibrant: mode
        default: family.isAccessory ? .vibrant : .fullColor
        }
    }

    func widgetNode(
        _ widget: GlimpseGatewayV1.Widget, mode: GlimpseWidgetV1.WidgetRenderingMode, at rect: Rect, dark: Bool? = nil
    ) -> GlimpseWidgetV1.LayoutNode {
        let family = Self.family(widget.family)
        let view = widget.entry?.view
        var node = widgetContent(
            view ?? Placeholder.view(family), family: family, bundleID: widget.bundleId,
            widgetURL: widget.entry?.widgetUrl ?? "",
            redacted: widget.placeholder || view == nil, mode: mode, rect: rect, name: String(widget.placementId),
            dark: dark)
        if widget.stale { node.dimmed = true }
        return node
    }

    /// A view tree as a widget of `family` at `rect`: margins, container background, clip.
    func widgetContent(
        _ view: GlimpseWidgetV1.View, family: WidgetFamily, bundleID: String, widgetURL: String, redacted: Bool,
        mode: GlimpseWidgetV1.WidgetRenderingMode, rect: Rect, name: String, dark: Bool? = nil
    ) -> GlimpseWidgetV1.LayoutNode {
        let mode = resolvedMode(mode, family)
        let colors = ColorResolver(dark: dark ?? environment.isDark, mode: mode)
        let builder = ViewBuilder(
            environment: environment, colors: colors, bundleID: bundleID, family: family, redacted: redacted)
        let root = builder.build(view)
        let margin = family.isAccessory ? 0.0 : 16
        let content = rect.inset(top: margin, leading: margin, bottom: margin, trailing: margin)
        let proposal = Proposal(content.size)
        let size = root.measure(proposal)

        var node = GlimpseWidgetV1.LayoutNode()
        node.kind = "widget"
        node.name = name
        node.frame = rect.message
        node.url = widgetURL
        node.redacted = redacted
        if mode == .fullColor {
            // Accented and vibrant modes remove the container background (spec §2).
            switch builder.containerBackground {
            case .some(.some(let style)):
                // A translucent container background (`.fill.tertiary`) tints the widget's own
                // platter (white, or the dark gray), it does not show the wallpaper through.
                switch builder.paint(style, ViewEnvironment()) {
                case .color(let c) where c.a < 1: node.fill = c.over(colors.widgetBackground).paint
                case let paint: node.fill = paint.message
                }
            case .some(.none): node.fill = colors.widgetBackground.paint
            case .none: if !family.isAccessory { node.fill = colors.widgetBackground.paint }
            }
        }
        switch family {
        case .accessoryCircular: node.clipShape = GlimpseWidgetV1.Shape(kind: .circle)
        case .accessoryRectangular, .accessoryInline: break
        default: node.clipShape = GlimpseWidgetV1.Shape(kind: .roundedRectangle, cornerRadius: 22)
        }
        node.children = [root.place(content.place(size, .center), proposal)]
        node.accessibilityLabel = LayoutText.content(of: node)
        return node
    }
}
