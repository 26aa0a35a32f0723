internal import GlimpseMessages

/// Gauges, progress views, labels, buttons and toggles, composed from stacks, texts and
/// indicators as SwiftUI draws them; each keeps its own node (kind, value, intent, url).
extension ViewBuilder {
    private var track: ColorResolver.RGBA { colors.primary.withAlpha(0.2) }

    private func indicatorColor(_ env: ViewEnvironment) -> ColorResolver.RGBA {
        if let tint = env.tint { return tint }
        if env.foreground != nil { return foregroundColor(env) }
        return colors.mode == .fullColor || colors.mode == .unspecified ? colors.system(.accentColor) : colors.primary
    }

    /// A small-print environment for a gauge's labels: one line, shrinking to fit.
    private func labelEnvironment(_ env: ViewEnvironment, font: FontSpec? = nil) -> ViewEnvironment {
        var e = env
        if let font { e.font = font }
        e.lineLimit = 1
        e.minimumScaleFactor = 0.5
        return e
    }

    func gauge(_ g: GlimpseWidgetV1.Gauge, _ env: ViewEnvironment, path: String) -> Node {
        let lo = g.minimum ?? 0, hi = g.maximum ?? 1
        let fraction = hi > lo ? min(1, max(0, (g.value - lo) / (hi - lo))) : 0
        let fill = finish(indicatorColor(env), env)
        let trackPaint = finish(track, env)
        let small = FontSpec(
            size: 11, weight: .regular, design: .default, monospacedDigit: false, leadingRatio: 13.0 / 11)
        let inner: Node
        switch g.style {
        case .accessoryCircularCapacity:
            // A closed ring, filled up to the value, the labels inside.
            let ring = IndicatorNode(
                kind: "ring", value: fraction, fill: fill, track: trackPaint, thickness: 6,
                ideal: Size(width: 58, height: 58))
            var centerFont = env.effectiveFont
            centerFont.size = min(centerFont.size, 20)
            let center = StackNode(
                axis: .vertical, spacing: 0, alignment: .center,
                children: [
                    sub(
                        g.currentValueLabel, labelEnvironment(env, font: centerFont), path: "\(path).currentValueLabel"),
                    sub(g.label, labelEnvironment(env, font: small), path: "\(path).label"),
                ])
            inner = StackNode(
                axis: nil, spacing: nil, alignment: .center,
                children: [ring, PaddingNode(center, top: 8, leading: 8, bottom: 8, trailing: 8)])
        case .accessoryCircular:
            // An open ring (a gap at the bottom) with a marker at the value; the current
            // value (else the label) in the middle, the minimum and maximum labels at the
            // ends of the ring, in the gap.
            let arc = IndicatorNode(
                kind: "arc", value: fraction, fill: fill, track: trackPaint, thickness: 5,
                ideal: Size(width: 58, height: 58))
            var centerFont = env.effectiveFont
            centerFont.size = min(centerFont.size, 20)
            let middle =
                g.currentValueLabel != nil
                ? sub(g.currentValueLabel, labelEnvironment(env, font: centerFont), path: "\(path).currentValueLabel")
                : sub(g.label, labelEnvironment(env, font: centerFont), path: "\(path).label")
            let tiny = FontSpec(
                size: 9, weight: .medium, design: .default, monospacedDigit: false, leadingRatio: 11.0 / 9)
            var layers: [Node] = [arc, PaddingNode(middle, top: 10, leading: 10, bottom: 10, trailing: 10)]
            if g.minimumValueLabel != nil || g.maximumValueLabel != nil {
                layers.append(
                    StackNode(
                        axis: .vertical, spacing: 0, alignment: .center,
                        children: [
                            SpacerNode(axis: .vertical, minLength: 0),
                            StackNode(
                                axis: .horizontal, spacing: 0, alignment: .center,
                                children: [
                                    sub(
                                        g.minimumValueLabel, labelEnvironment(env, font: tiny),
                                        path: "\(path).minimumValueLabel"),
                                    SpacerNode(axis: .horizontal, minLength: 12),
                                    sub(
                                        g.maximumValueLabel, labelEnvironment(env, font: tiny),
                                        path: "\(path).maximumValueLabel"),
                                ]),
                        ]))
            }
            inner = StackNode(axis: nil, spacing: nil, alignment: .center, children: layers)
        default:
            let bar = IndicatorNode(
                kind: "bar", value: fraction, fill: fill, track: trackPaint,
                thickness: g.style == .accessoryLinear ? 4 : 6, ideal: Size(width: 100, height: 6))
            let e = labelEnvironment(env, font: small)
            var rows: [Node] = []
            if g.label != nil || g.currentValueLabel != nil {
                rows.append(
                    StackNode(
                        axis: .horizontal, spacing: nil, alignment: .center,
                        children: [
                            sub(g.label, labelEnvironment(env), path: "\(path).label"),
                            SpacerNode(axis: .horizontal, minLength: 8),
                            sub(g.currentValueLabel, labelEnvironment(env), path: "\(path).currentValueLabel"),
                        ]))
            }
            var barRow: [Node] = []
            if g.minimumValueLabel != nil {
                barRow.append(sub(g.minimumValueLabel, e, path: "\(path).minimumValueLabel"))
            }
            barRow.append(bar)
            if g.maximumValueLabel != nil {
                barRow.append(sub(g.maximumValueLabel, e, path: "\(path).maximumValueLabel"))
            }
            rows.append(
                barRow.count == 1 ? bar : StackNode(axis: .horizontal, spacing: 6, alignment: .center, children: barRow)
            )
            inner =
                rows.count == 1
                ? rows[0]
                : StackNode(
                    axis: .vertical, spacing: 4, alignment: Alignment2D(horizontal: .leading, vertical: .center),
                    children: rows)
        }
        return KindNode(kind: "gauge", inner: inner) { $0.value = fraction }
    }

    func progress(_ p: GlimpseWidgetV1.ProgressView, _ env: ViewEnvironment, path: String) -> Node {
        let fraction: Double
        switch p.progress {
        case .fraction(let f)?:
            let total = f.total == 0 ? 1 : f.total
            fraction = min(1, max(0, f.value / total))
        case .timerInterval(let interval)?: fraction = clock.fraction(interval, countsDown: p.countsDown)
        case nil: fraction = 0
        }
        let fill = finish(indicatorColor(env), env)
        let trackPaint = finish(track, env)
        let indicator: Node =
            p.style == .circular
            ? IndicatorNode(
                kind: "ring", value: fraction, fill: fill, track: trackPaint, thickness: 4,
                ideal: Size(width: 24, height: 24), fixed: true)
            : IndicatorNode(
                kind: "bar", value: fraction, fill: fill, track: trackPaint, thickness: 4,
                ideal: Size(width: 100, height: 4))
        let inner: Node =
            p.label == nil
            ? indicator
            : StackNode(
                axis: .vertical, spacing: 4, alignment: Alignment2D(horizontal: .leading, vertical: .center),
                children: [
                    sub(p.label, env, path: "\(path).label"), indicator,
                ])
        return KindNode(kind: "progress", inner: inner) { $0.value = fraction }
    }

    func label(_ l: GlimpseWidgetV1.Label, _ env: ViewEnvironment, path: String) -> Node {
        let inner = StackNode(
            axis: .horizontal, spacing: 6, alignment: .center,
            children: [
                sub(l.icon, env, path: "\(path).icon"), sub(l.title, env, path: "\(path).title"),
            ])
        return KindNode(kind: "label", inner: inner)
    }

    func button(_ b: GlimpseWidgetV1.Button, _ env: ViewEnvironment, path: String) -> Node {
        var labelEnv = env
        var inner: Node
        let accent = env.tint ?? colors.system(.accentColor)
        switch b.style {
        case .bordered, .borderedProminent:
            var style = GlimpseWidgetV1.ShapeStyle()
            if b.style == .borderedProminent {
                style.kind = .color(GlimpseWidgetV1.Color(value: .system(.white)))
            } else {
                style.kind = .color(
                    GlimpseWidgetV1.Color(
                        value: .rgba(
                            .init(red: Float(accent.r), green: Float(accent.g), blue: Float(accent.b), alpha: 1))))
            }
            if labelEnv.foreground == nil { labelEnv.foreground = style }
            let chrome = b.style == .borderedProminent ? accent : accent.withAlpha(0.15)
            let padded = PaddingNode(
                sub(b.label, labelEnv, path: "\(path).label"), top: 7, leading: 14, bottom: 7, trailing: 14)
            inner = BackgroundNode(
                padded, paint: finish(chrome, env), shape: GlimpseWidgetV1.Shape(kind: .capsule), kind: "background")
        default:
            inner = sub(b.label, labelEnv, path: "\(path).label")
        }
        let intent = b.intent
        return KindNode(kind: "button", inner: inner) { node in
            node.intent = intent
            node.accessibilityLabel = LayoutText.content(of: node)
        }
    }

    func toggle(_ t: GlimpseWidgetV1.Toggle, _ env: ViewEnvironment, path: String) -> Node {
        let on = t.isOn
        let knobTrack = on ? finish(env.tint ?? colors.system(.green), env) : finish(colors.fill(.unspecified), env)
        let switchNode = FixedNode(kind: "switch", size: Size(width: 51, height: 31)) { node in
            node.isOn = on
            node.fill = knobTrack.message
            node.clipShape = GlimpseWidgetV1.Shape(kind: .capsule)
        }
        let inner: Node =
            t.label == nil
            ? switchNode
            : StackNode(
                axis: .horizontal, spacing: 8, alignment: .center,
                children: [
                    sub(t.label, env, path: "\(path).label"), SpacerNode(axis: .horizontal, minLength: 0), switchNode,
                ])
        let intent = t.intent
        return KindNode(kind: "toggle", inner: inner) { node in
            node.intent = intent
            node.isOn = on
            node.accessibilityLabel = LayoutText.content(of: node)
        }
    }
}

/// A gauge's or progress view's drawn part: a ring (square, filling the smaller side of
/// the proposal) or a bar (filling the width at a fixed thickness); `value` is 0...1.
final class IndicatorNode: Node {
    let kind: String
    let value: Double
    let fill: Paint
    let track: Paint
    let thickness: Double
    let ideal: Size
    let fixed: Bool

    init(kind: String, value: Double, fill: Paint, track: Paint, thickness: Double, ideal: Size, fixed: Bool = false) {
        self.kind = kind
        self.value = value
        self.fill = fill
        self.track = track
        self.thickness = thickness
        self.ideal = ideal
        self.fixed = fixed
    }

    override func sizeThatFits(_ proposal: Proposal) -> Size {
        if fixed { return ideal }
        let w = proposal.width.flatMap { $0.isFinite ? $0 : nil }
        let h = proposal.height.flatMap { $0.isFinite ? $0 : nil }
        if kind == "ring" || kind == "arc" {
            let side = min(w ?? ideal.width, h ?? ideal.height)
            return Size(width: side, height: side)
        }
        return Size(width: w ?? ideal.width, height: thickness)
    }

    override func place(_ rect: Rect, _ proposal: Proposal) -> GlimpseWidgetV1.LayoutNode {
        var node = makeNode(kind, rect)
        node.value = value
        node.foreground = fill.message
        node.fill = track.message
        let round = kind == "ring" || kind == "arc"
        node.strokeWidth = round ? thickness : 0
        node.clipShape = GlimpseWidgetV1.Shape(kind: round ? .circle : .capsule)
        return node
    }
}
