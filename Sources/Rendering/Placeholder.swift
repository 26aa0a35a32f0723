internal import GlimpseMessages
internal import GlimpseVocabulary

/// What a widget shows before its provider answers: a generic tree drawn redacted (text
/// as rounded bars), shaped like a typical widget of the family.
enum Placeholder {
    static func view(_ family: WidgetFamily) -> GlimpseWidgetV1.View {
        func text(_ s: String, _ style: GlimpseWidgetV1.FontTextStyle) -> GlimpseWidgetV1.View {
            var font = GlimpseWidgetV1.Font()
            font.textStyle = style
            var v = GlimpseWidgetV1.View()
            v.kind = .text(GlimpseWidgetV1.Text(content: s))
            v.modifiers = [GlimpseWidgetV1.Modifier(kind: .font(font)), GlimpseWidgetV1.Modifier(kind: .lineLimit(1))]
            return v
        }
        var stack = GlimpseWidgetV1.Stack()
        stack.axis = .vertical
        stack.alignment = GlimpseWidgetV1.Alignment(horizontal: .leading, vertical: .center)
        stack.spacing = 6
        switch family {
        case .accessoryInline: return text("Placeholder", .body)
        case .accessoryCircular: stack.children = [text("00", .title3)]
        case .accessoryRectangular: stack.children = [text("Placeholder", .headline), text("Loading", .body)]
        default:
            stack.children = [text("Placeholder", .headline), text("Loading content", .body), text("Please wait", .caption)]
        }
        var frame = GlimpseWidgetV1.Frame()
        frame.maxWidth = .infinity
        frame.maxHeight = .infinity
        frame.alignment = GlimpseWidgetV1.Alignment(horizontal: .leading, vertical: .top)
        var v = GlimpseWidgetV1.View()
        v.kind = .stack(stack)
        if !family.isAccessory { v.modifiers = [GlimpseWidgetV1.Modifier(kind: .frame(frame))] }
        return v
    }
}

/// The app images a view tree names, so a caller can fetch them before rendering.
enum AssetNames {
    static func collect(_ view: GlimpseWidgetV1.View?, into names: inout Set<String>) {
        guard let view else { return }
        switch view.kind {
        case .image(let image)?: if !image.assetName.isEmpty { names.insert(image.assetName) }
        case .stack(let stack)?: for child in stack.children { collect(child, into: &names) }
        case .gauge(let g)?:
            for v in [g.label, g.currentValueLabel, g.minimumValueLabel, g.maximumValueLabel] { collect(v, into: &names) }
        case .progress(let p)?: collect(p.label, into: &names)
        case .label(let l)?:
            collect(l.title, into: &names)
            collect(l.icon, into: &names)
        case .button(let b)?: collect(b.label, into: &names)
        case .toggle(let t)?: collect(t.label, into: &names)
        case .link(let l)?: collect(l.label, into: &names)
        default: break
        }
    }
}
