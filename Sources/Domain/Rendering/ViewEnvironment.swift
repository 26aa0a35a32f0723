internal import GlimpseMessages

/// What a view inherits from the views around it (SwiftUI's environment): font, styles,
/// text limits, accentable and redacted state. Environment modifiers reach the whole view
/// they modify, whatever their place among layout modifiers; nearer ones win.
struct ViewEnvironment {
    var font = FontSpec.body
    var weightOverride: GlimpseWidgetV1.FontWeight?
    var foreground: GlimpseWidgetV1.ShapeStyle?
    /// `.secondary`, `.tertiary`…: a level of the enclosing foreground, not a color of its own.
    var foregroundLevel: GlimpseWidgetV1.HierarchicalStyle?
    var tint: ColorResolver.RGBA?
    var lineLimit: Int?
    var minimumScaleFactor = 1.0
    var multilineAlignment = GlimpseWidgetV1.TextAlignment.leading
    var monospacedDigit = false
    var accentable = false
    var redacted = false
    /// Privacy-sensitive views are redacted here: the device is locked, or an ancestor has
    /// `.redacted(reason: .privacy)`.
    var privacyRedaction = false
    var privacySensitive = false

    var effectiveFont: FontSpec {
        var f = font
        if let weightOverride { f.weight = weightOverride }
        f.monospacedDigit = monospacedDigit
        return f
    }

    /// Applies the environment modifiers of `modifiers`, the outermost first, so that the
    /// view's own (innermost) setting wins.
    mutating func apply(_ modifiers: [GlimpseWidgetV1.Modifier], colors: ColorResolver) {
        for modifier in modifiers.reversed() {
            switch modifier.kind {
            case .font(let f)?:
                font = FontSpec(f, inheriting: font)
                if f.weight != .unspecified { weightOverride = nil }
            case .fontWeight(let w)?: weightOverride = w
            case .foregroundStyle(let s)?:
                if case .hierarchical(let level)? = s.kind {
                    foregroundLevel = level
                } else {
                    foreground = s
                    foregroundLevel = nil
                }
            case .tint(let s)?:
                if case .color(let c)? = s.kind { tint = colors.color(c, tint: tint) }
            case .lineLimit(let n)?: lineLimit = n > 0 ? Int(n) : nil
            case .minimumScaleFactor(let f)?: minimumScaleFactor = min(1, max(0.01, f))
            case .multilineTextAlignment(let a)?: multilineAlignment = a
            case .monospacedDigit(let on)?: monospacedDigit = on
            case .widgetAccentable(let on)?: accentable = on
            case .privacySensitive(let on)?: privacySensitive = on
            case .redacted(let reason)?:
                switch reason {
                case .placeholder: redacted = true
                case .privacy: privacyRedaction = true
                default: break
                }
            default: break
            }
        }
        if privacySensitive && privacyRedaction { redacted = true }
    }
}
