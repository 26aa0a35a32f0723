package import GlimpseMessages

/// A layout as a standalone SVG 1.1 document in points (viewBox = the canvas).
///
/// Text is drawn with the system font stack and `textLength` set to the width the layout
/// measured, so lines keep their measured extent whatever font the viewer has. Redacted
/// text is rounded bars; images are `data:` URLs when `embedImages` and bytes are at hand,
/// else labelled boxes; SF Symbols are labelled squares. Widget, region and island groups
/// carry their text as `aria-label` and `<title>`. Numbers have at most two decimals, so the
/// same layout always gives the same bytes.
package enum SVGWriter {
    package static func document(
        _ layout: GlimpseWidgetV1.Layout, assets: [AssetKey: AssetImage] = [:], embedImages: Bool = false
    ) -> String {
        let size = layout.size ?? .init()
        var w = Writer(assets: assets, embedImages: embedImages)
        w.out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        w.out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\""
        w.out +=
            " width=\"\(fmt(size.width))\" height=\"\(fmt(size.height))\" viewBox=\"0 0 \(fmt(size.width)) \(fmt(size.height))\">\n"
        w.out += "<title>\(escape(layout.target))</title>\n"
        if let root = layout.root { w.draw(root, depth: 1) }
        if !w.defs.isEmpty { w.out += "<defs>\n" + w.defs + "</defs>\n" }
        w.out += "</svg>\n"
        return w.out
    }

    /// At most two decimals, no trailing zeros, no "-0". Beyond a trillion points (a view can
    /// ask for `.frame(width: 1e300)`) the number is written as a trillion: nothing there shows.
    static func fmt(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let scaled = (min(max(v, -1e12), 1e12) * 100).rounded()
        if scaled == 0 { return "0" }
        let negative = scaled < 0
        let n = Int(abs(scaled))
        var s = String(n / 100)
        let frac = n % 100
        if frac != 0 { s += frac % 10 == 0 ? ".\(frac / 10)" : (frac < 10 ? ".0\(frac)" : ".\(frac)") }
        return negative ? "-" + s : s
    }

    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func color(_ c: GlimpseWidgetV1.ResolvedColor?) -> (hex: String, opacity: Double) {
        guard let c else { return ("#000000", 1) }
        func byte(_ v: Float) -> String {
            let b = Int((max(0, min(1, Double(v))) * 255).rounded())
            let digits = Array("0123456789abcdef")
            return String([digits[b / 16], digits[b % 16]])
        }
        return ("#" + byte(c.red) + byte(c.green) + byte(c.blue), Double(c.alpha))
    }

    static let fontFamily = "-apple-system, 'SF Pro Text', 'Helvetica Neue', Helvetica, Arial, sans-serif"
    static let roundedFamily = "'SF Pro Rounded', -apple-system, 'Helvetica Neue', Helvetica, Arial, sans-serif"
    static let monoFamily = "ui-monospace, 'SF Mono', Menlo, 'DejaVu Sans Mono', monospace"
    static let serifFamily = "'New York', Georgia, 'Times New Roman', serif"

    static func fontWeight(_ w: GlimpseWidgetV1.FontWeight) -> Int {
        switch w {
        case .ultraLight: 100
        case .thin: 200
        case .light: 300
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 800
        case .black: 900
        default: 400
        }
    }

    static func font(_ node: GlimpseWidgetV1.LayoutNode) -> FontSpec {
        FontSpec(
            size: node.fontSize > 0 ? node.fontSize : 17, weight: node.fontWeight, design: node.fontDesign,
            monospacedDigit: false, leadingRatio: 1.2)
    }
}
