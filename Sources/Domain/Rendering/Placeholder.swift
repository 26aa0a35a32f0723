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
            stack.children = [
                text("Placeholder", .headline), text("Loading content", .body), text("Please wait", .caption),
            ]
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
