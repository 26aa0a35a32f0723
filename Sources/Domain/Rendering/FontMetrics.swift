internal import GlimpseMessages

/// A resolved font: SwiftUI's text styles at the default Dynamic Type size (Large), with
/// advance widths approximating SF Pro.
///
/// The per-character advances are Helvetica's published AFM widths (1/1000 em), with
/// SF Pro's proportional digits (a narrow "1"); weights widen glyphs by a factor. This is
/// an approximation: it measures within a few percent of the real font for Latin text,
/// which is what layout decisions (wrap, truncate, fit) need.
struct FontSpec: Equatable {
    var size: Double
    var weight: GlimpseWidgetV1.FontWeight
    var design: GlimpseWidgetV1.FontDesign
    var monospacedDigit: Bool
    /// The text style's leading (line height) at size 17 → 22; scales with `size`.
    var leadingRatio: Double

    static let body = FontSpec(
        size: 17, weight: .regular, design: .default, monospacedDigit: false, leadingRatio: 22.0 / 17)

    /// `.font(…)`: a text style or `.system(size:)`, with its weight and design.
    init(_ font: GlimpseWidgetV1.Font, inheriting base: FontSpec) {
        let style = Self.styles[font.textStyle]
        var size = style?.size ?? base.size
        var leading = style.map { $0.leading / $0.size } ?? base.leadingRatio
        if let explicit = font.size, explicit > 0 {
            size = explicit
            if style == nil { leading = 1.2 }
        }
        var weight = style?.weight ?? .regular
        if font.weight != .unspecified { weight = font.weight }
        self.init(
            size: size, weight: weight, design: font.design, monospacedDigit: base.monospacedDigit,
            leadingRatio: leading)
    }

    init(
        size: Double, weight: GlimpseWidgetV1.FontWeight, design: GlimpseWidgetV1.FontDesign, monospacedDigit: Bool,
        leadingRatio: Double
    ) {
        self.size = size
        self.weight = weight
        self.design = design
        self.monospacedDigit = monospacedDigit
        self.leadingRatio = leadingRatio
    }

    /// Rounded up to the 3× pixel grid (a hair of tolerance so 17 × 22/17 stays 22).
    var lineHeight: Double { (size * leadingRatio * 3 - 1e-9).rounded(.up) / 3 }

    func scaled(_ factor: Double) -> FontSpec {
        var copy = self
        copy.size = size * factor
        return copy
    }

    /// Width of `text` in points.
    func width(of text: Substring) -> Double {
        var total = 0.0
        for scalar in text.unicodeScalars { total += unitAdvance(scalar) }
        return total * size * weightFactor
    }

    func width(of text: String) -> Double { width(of: text[...]) }

    /// One character's advance in points.
    func advance(_ scalar: Unicode.Scalar) -> Double { unitAdvance(scalar) * size * weightFactor }

    private func unitAdvance(_ scalar: Unicode.Scalar) -> Double {
        let v = scalar.value
        if design == .monospaced { return v >= 0x2E80 ? 1.2 : 0.6 }
        if v >= 0x30 && v <= 0x39 {
            if monospacedDigit { return 0.58 }
            return v == 0x31 ? 0.42 : 0.58
        }
        if v >= 0x20 && v < 0x7F {
            let w = Double(Self.ascii[Int(v - 0x20)]) / 1000
            return design == .serif ? w * 0.95 : (design == .rounded ? w * 1.02 : w)
        }
        switch v {
        case 0x2026: return 1.0  // …
        case 0x2013: return 0.556  // –
        case 0x2014: return 1.0  // —
        case 0x00A0: return 0.278
        case 0x00B0: return 0.4  // °
        case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF: return 1.0
        case 0x1F000...0x1FAFF, 0x2600...0x27BF: return 1.25
        case 0x0300...0x036F, 0x200B...0x200D, 0xFE0F: return 0
        default: return 0.56
        }
    }

    private var weightFactor: Double {
        switch weight {
        case .ultraLight: 0.94
        case .thin: 0.95
        case .light: 0.97
        case .medium: 1.03
        case .semibold: 1.06
        case .bold: 1.09
        case .heavy: 1.12
        case .black: 1.15
        default: 1.0
        }
    }

    /// Helvetica's advances for U+0020…U+007E (Adobe AFM, 1/1000 em).
    private static let ascii: [UInt16] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // space … /
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // 0 … ?
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // @ … O
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // P … _
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // ` … o
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,  // p … ~
    ]

    /// Dynamic Type "Large" (the default): size, leading and weight of each text style.
    private static let styles:
        [GlimpseWidgetV1.FontTextStyle: (size: Double, leading: Double, weight: GlimpseWidgetV1.FontWeight)] = [
            .largeTitle: (34, 41, .regular),
            .title: (28, 34, .regular),
            .title2: (22, 28, .regular),
            .title3: (20, 25, .regular),
            .headline: (17, 22, .semibold),
            .body: (17, 22, .regular),
            .callout: (16, 21, .regular),
            .subheadline: (15, 20, .regular),
            .footnote: (13, 18, .regular),
            .caption: (12, 16, .regular),
            .caption2: (11, 13, .regular),
        ]
}
