internal import GlimpseMessages
internal import GlimpseVocabulary

/// Turns a wire view tree into layout nodes: environment modifiers resolve into each view's
/// environment; layout and drawing modifiers wrap the view's node in the order written.
/// `containerBackground` and `activityBackgroundTint` are collected for the system to draw
/// behind the whole widget or activity.
final class ViewBuilder {
    let environment: RenderEnvironment
    let colors: ColorResolver
    let clock: Clock
    let bundleID: String
    let family: WidgetFamily?
    let baseEnvironment: ViewEnvironment
    /// The outermost `containerBackground(_:for: .widget)`; `.some(nil)`: the system's.
    var containerBackground: GlimpseWidgetV1.ShapeStyle??
    var activityBackgroundTint: GlimpseWidgetV1.ShapeStyle?

    init(environment: RenderEnvironment, colors: ColorResolver, bundleID: String, family: WidgetFamily?, redacted: Bool)
    {
        self.environment = environment
        self.colors = colors
        self.clock = Clock(now: environment.now, timeZone: environment.timeZone)
        self.bundleID = bundleID
        self.family = family
        var base = ViewEnvironment()
        base.redacted = redacted
        base.privacyRedaction = environment.locked
        self.baseEnvironment = base
    }

    func build(_ view: GlimpseWidgetV1.View) -> Node {
        build(view, baseEnvironment, path: "0", stackAxis: nil)
    }

    func build(_ view: GlimpseWidgetV1.View, _ parent: ViewEnvironment, path: String, stackAxis: Axis?) -> Node {
        var env = parent
        env.apply(view.modifiers, colors: colors)
        let core = content(view, env, path: path, stackAxis: stackAxis)
        core.path = path
        core.id = view.id
        return modify(core, view.modifiers, env)
    }

    // MARK: Colors

    func foreground(_ env: ViewEnvironment) -> Paint {
        var raw = colors.paint(env.foreground, tint: env.tint, foreground: colors.primary)
        if let level = env.foregroundLevel, case .color(let c) = raw {
            // The level's opacity applied to the enclosing foreground (label colors' alphas).
            raw = .color(env.foreground == nil ? colors.label(level) : c.withAlpha(c.a * colors.label(level).a))
        }
        return colors.finish(raw, accentable: env.accentable)
    }

    func paint(_ style: GlimpseWidgetV1.ShapeStyle?, _ env: ViewEnvironment) -> Paint {
        let fg = foregroundColor(env)
        return colors.finish(colors.paint(style, tint: env.tint, foreground: fg), accentable: env.accentable)
    }

    func foregroundColor(_ env: ViewEnvironment) -> ColorResolver.RGBA {
        var base = colors.primary
        if case .color(let c) = colors.paint(env.foreground, tint: env.tint, foreground: colors.primary) { base = c }
        guard let level = env.foregroundLevel else { return base }
        return env.foreground == nil ? colors.label(level) : base.withAlpha(base.a * colors.label(level).a)
    }

    func finish(_ c: ColorResolver.RGBA, _ env: ViewEnvironment) -> Paint {
        .color(colors.finish(c, accentable: env.accentable))
    }

    // MARK: Kinds

    private func content(_ view: GlimpseWidgetV1.View, _ env: ViewEnvironment, path: String, stackAxis: Axis?) -> Node {
        switch view.kind {
        case .text(let t)?: return text(t.content, kind: "text", env)
        case .timerText(let t)?:
            let s = clock.timer(t.timerInterval, countsDown: t.countsDown, showsHours: t.showsHours ?? true)
            return text(s, kind: "timerText", env, fillsWidth: true)
        case .dateText(let d)?:
            let s = clock.text(Clock.date(d.date), style: d.style)
            return text(s, kind: "dateText", env, fillsWidth: d.style == .timer)
        case .image(let image)?: return self.image(image, env)
        case .symbol(let symbol)?:
            let side = env.effectiveFont.lineHeight
            let fg = foreground(env)
            return FixedNode(kind: "symbol", size: Size(width: side, height: side)) { node in
                node.systemName = symbol.systemName
                node.foreground = fg.message
                node.fontSize = env.effectiveFont.size
                node.redacted = env.redacted
            }
        case .stack(let stack)?:
            let axis: Axis? = stack.axis == .horizontal ? .horizontal : (stack.axis == .depth ? nil : .vertical)
            var alignment = Alignment2D(stack.alignment)
            if axis == .horizontal { alignment.horizontal = .center }
            if axis == .vertical { alignment.vertical = .center }
            let children = stack.children.enumerated().map { i, child in
                build(child, env, path: "\(path).\(i)", stackAxis: axis)
            }
            return StackNode(axis: axis, spacing: stack.spacing, alignment: alignment, children: children)
        case .spacer(let spacer)?: return SpacerNode(axis: stackAxis, minLength: spacer.minLength ?? 8)
        case .divider?:
            let separator =
                colors.dark
                ? ColorResolver.RGBA(hex: 0x545458, alpha: 0.6) : ColorResolver.RGBA(hex: 0x3C3C43, alpha: 0.29)
            return DividerNode(stackAxis: stackAxis, paint: finish(separator, env))
        case .shape(let shape)?:
            let fill = paint(shape.fill, env)
            return FillNode(kind: "shape") { node in
                node.clipShape = shape.shape ?? GlimpseWidgetV1.Shape(kind: .rectangle)
                node.fill = fill.message
                node.strokeWidth = shape.strokeWidth ?? 0
            }
        case .gradient(let g)?:
            var style = GlimpseWidgetV1.ShapeStyle()
            style.kind = .linearGradient(g.gradient ?? .init())
            let fill = paint(style, env)
            return FillNode(kind: "gradient") { $0.fill = fill.message }
        case .accessoryWidgetBackground?:
            let fill = finish(ColorResolver.RGBA(0.5, 0.5, 0.5, 0.35), env)
            let circular = family == .accessoryCircular
            return FillNode(kind: "accessoryWidgetBackground") { node in
                node.fill = fill.message
                node.clipShape = GlimpseWidgetV1.Shape(
                    kind: circular ? .circle : .roundedRectangle, cornerRadius: circular ? 0 : 10)
            }
        case .gauge(let g)?: return gauge(g, env, path: path)
        case .progress(let p)?: return progress(p, env, path: path)
        case .label(let l)?: return label(l, env, path: path)
        case .button(let b)?: return button(b, env, path: path)
        case .toggle(let t)?: return toggle(t, env, path: path)
        case .link(let l)?:
            let inner = sub(l.label, env, path: "\(path).label")
            let destination = l.destination
            return KindNode(kind: "link", inner: inner) { $0.url = destination }
        case nil: return FixedNode(kind: "empty", size: .zero) { _ in }
        }
    }

    func sub(_ view: GlimpseWidgetV1.View?, _ env: ViewEnvironment, path: String, stackAxis: Axis? = nil) -> Node {
        guard let view else { return FixedNode(kind: "empty", size: .zero) { _ in } }
        return build(view, env, path: path, stackAxis: stackAxis)
    }

    func text(_ s: String, kind: String, _ env: ViewEnvironment, fillsWidth: Bool = false) -> TextNode {
        TextNode(
            kind: kind, text: s, font: env.effectiveFont, lineLimit: env.lineLimit,
            minimumScaleFactor: env.minimumScaleFactor, alignment: env.multilineAlignment, fillsWidth: fillsWidth,
            foreground: foreground(env), redacted: env.redacted)
    }

    private func image(_ image: GlimpseWidgetV1.Image, _ env: ViewEnvironment) -> Node {
        let key = AssetKey(bundleID: bundleID, name: image.assetName)
        let asset = environment.assets[key] ?? environment.assets[AssetKey(bundleID: "", name: image.assetName)]
        let scale = environment.device.scale
        let natural = asset.map { Size(width: Double($0.pixelWidth) / scale, height: Double($0.pixelHeight) / scale) }
        let redacted = env.redacted
        return ImageNode(
            assetName: key.nodeName, natural: natural, resizable: image.resizable, contentMode: image.contentMode
        ) { node in
            node.redacted = redacted
        }
    }

    // MARK: Modifiers

    private func modify(_ core: Node, _ modifiers: [GlimpseWidgetV1.Modifier], _ env: ViewEnvironment) -> Node {
        var node = core
        for modifier in modifiers {
            switch modifier.kind {
            case .padding(let p)?:
                let l = p.length ?? 16
                let (t, le, b, tr): (Double, Double, Double, Double)
                switch p.edges {
                case .horizontal: (t, le, b, tr) = (0, l, 0, l)
                case .vertical: (t, le, b, tr) = (l, 0, l, 0)
                case .top: (t, le, b, tr) = (l, 0, 0, 0)
                case .bottom: (t, le, b, tr) = (0, 0, l, 0)
                case .leading: (t, le, b, tr) = (0, l, 0, 0)
                case .trailing: (t, le, b, tr) = (0, 0, 0, l)
                default: (t, le, b, tr) = (l, l, l, l)
                }
                node = PaddingNode(node, top: t, leading: le, bottom: b, trailing: tr)
            case .frame(let f)?: node = FrameNode(node, f)
            case .cornerRadius(let r)?:
                node = EffectNode(
                    node, applyIn: EffectNode.clip(GlimpseWidgetV1.Shape(kind: .roundedRectangle, cornerRadius: r)))
            case .clipShape(let s)?, .mask(let s)?: node = EffectNode(node, applyIn: EffectNode.clip(s))
            case .background(let style)?: node = BackgroundNode(node, paint: paint(style, env), shape: nil)
            case .opacity(let o)?:
                node = EffectNode(node) { n in
                    let current = n.opacity == 0 ? 1 : n.opacity
                    n.opacity = max(current * max(0, min(1, o)), 0.0001)
                }
            case .scaleEffect(let s)?: node = EffectNode(node, apply: EffectNode.scale(s.x, s.y))
            case .accessibilityLabel(let label)?: node = EffectNode(node) { $0.accessibilityLabel = label }
            case .invalidatableContent(let on)?: if on { node = EffectNode(node) { $0.dimmed = true } }
            // Built inside-out, so the outermost declaration is the last one seen and wins.
            case .containerBackground(let cb)?: containerBackground = .some(cb.style)
            case .activityBackgroundTint(let style)?: activityBackgroundTint = style
            default: break
            }
        }
        return node
    }
}
