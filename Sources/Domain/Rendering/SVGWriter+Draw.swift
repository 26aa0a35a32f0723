#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import GlimpseMessages

extension SVGWriter {
    /// Walks the layout tree once, appending elements; gradients and clips go to `defs`.
    struct Writer {
        let assets: [AssetKey: AssetImage]
        let embedImages: Bool
        var out = ""
        var defs = ""
        var nextID = 0

        init(assets: [AssetKey: AssetImage], embedImages: Bool) {
            self.assets = assets
            self.embedImages = embedImages
        }

        static let groupKinds: Set<String> = ["widget", "region", "island", "activity", "smartStack", "screen"]
        static let clippedLeafKinds: Set<String> = [
            "image", "symbol", "text", "timerText", "dateText", "ring", "arc",
        ]

        mutating func draw(_ node: GlimpseWidgetV1.LayoutNode, depth: Int) {
            let f = Rect(node.frame)
            var attributes = ""
            let isGroup = Self.groupKinds.contains(node.kind)
            if isGroup {
                attributes += " data-kind=\"\(node.kind)\""
                if !node.name.isEmpty { attributes += " data-name=\"\(escape(node.name))\"" }
                if !node.accessibilityLabel.isEmpty {
                    attributes += " aria-label=\"\(escape(node.accessibilityLabel))\""
                }
            } else if !node.id.isEmpty {
                attributes += " id=\"\(escape(node.id))\""
            }
            let opacity = (node.opacity > 0 ? node.opacity : 1) * (node.dimmed ? 0.45 : 1)
            if opacity < 1 { attributes += " opacity=\"\(fmt(opacity))\"" }
            // A shape's own clipShape is its outline (drawn by `body`); anything else is clipped.
            if let clip = node.clipShape, !node.children.isEmpty || Self.clippedLeafKinds.contains(node.kind) {
                nextID += 1
                let id = "clip\(nextID)"
                defs += "<clipPath id=\"\(id)\">\(shape(clip, f, paint: ""))</clipPath>\n"
                attributes += " clip-path=\"url(#\(id))\""
            }
            out += "<g\(attributes)>"
            if isGroup && !node.accessibilityLabel.isEmpty {
                out += "<title>\(escape(node.accessibilityLabel))</title>"
            }
            out += "\n"
            body(node, f)
            for child in node.children { draw(child, depth: depth + 1) }
            out += "</g>\n"
        }

        mutating func paint(_ p: GlimpseWidgetV1.Paint?, attribute: String = "fill") -> String {
            switch p?.kind {
            case .color(let c)?:
                let (hex, alpha) = color(c)
                return " \(attribute)=\"\(hex)\"" + (alpha < 1 ? " \(attribute)-opacity=\"\(fmt(alpha))\"" : "")
            case .gradient(let g)?:
                nextID += 1
                let id = "grad\(nextID)"
                let s = g.startPoint ?? .init(x: 0.5, y: 0), e = g.endPoint ?? .init(x: 0.5, y: 1)
                defs +=
                    "<linearGradient id=\"\(id)\" x1=\"\(fmt(s.x))\" y1=\"\(fmt(s.y))\" x2=\"\(fmt(e.x))\" y2=\"\(fmt(e.y))\">"
                for stop in g.stops {
                    let (hex, alpha) = color(stop.color)
                    defs +=
                        "<stop offset=\"\(fmt(stop.location))\" stop-color=\"\(hex)\""
                        + (alpha < 1 ? " stop-opacity=\"\(fmt(alpha))\"" : "") + "/>"
                }
                defs += "</linearGradient>\n"
                return " \(attribute)=\"url(#\(id))\""
            case nil: return " \(attribute)=\"none\""
            }
        }

        func shape(_ s: GlimpseWidgetV1.Shape?, _ f: Rect, paint: String) -> String {
            let geometry = "x=\"\(fmt(f.x))\" y=\"\(fmt(f.y))\" width=\"\(fmt(f.width))\" height=\"\(fmt(f.height))\""
            switch s?.kind {
            case .roundedRectangle?, .containerRelative?:
                let radius = s?.cornerRadius ?? 0
                let r = min(radius > 0 ? radius : 12, min(f.width, f.height) / 2)
                return "<rect \(geometry) rx=\"\(fmt(r))\"\(paint)/>"
            case .capsule?:
                return "<rect \(geometry) rx=\"\(fmt(min(f.width, f.height) / 2))\"\(paint)/>"
            case .circle?:
                return
                    "<circle cx=\"\(fmt(f.midX))\" cy=\"\(fmt(f.midY))\" r=\"\(fmt(min(f.width, f.height) / 2))\"\(paint)/>"
            case .ellipse?:
                return
                    "<ellipse cx=\"\(fmt(f.midX))\" cy=\"\(fmt(f.midY))\" rx=\"\(fmt(f.width / 2))\" ry=\"\(fmt(f.height / 2))\"\(paint)/>"
            default:
                return "<rect \(geometry)\(paint)/>"
            }
        }

        mutating func body(_ node: GlimpseWidgetV1.LayoutNode, _ f: Rect) {
            switch node.kind {
            case "ring":
                let r = min(f.width, f.height) / 2 - node.strokeWidth / 2
                let c = 2 * Double.pi * r
                out +=
                    "<circle cx=\"\(fmt(f.midX))\" cy=\"\(fmt(f.midY))\" r=\"\(fmt(r))\" fill=\"none\"\(paint(node.fill, attribute: "stroke")) stroke-width=\"\(fmt(node.strokeWidth))\"/>\n"
                out +=
                    "<circle cx=\"\(fmt(f.midX))\" cy=\"\(fmt(f.midY))\" r=\"\(fmt(r))\" fill=\"none\"\(paint(node.foreground, attribute: "stroke")) stroke-width=\"\(fmt(node.strokeWidth))\" stroke-linecap=\"round\" stroke-dasharray=\"\(fmt(c * node.value)) \(fmt(c))\" transform=\"rotate(-90 \(fmt(f.midX)) \(fmt(f.midY)))\"/>\n"
            case "arc":
                // Three quarters of a circle from the bottom left, clockwise over the top to
                // the bottom right; the marker (a dot ringed in the track's colour) at the value.
                let r = min(f.width, f.height) / 2 - node.strokeWidth / 2
                let c = 2 * Double.pi * r
                out +=
                    "<circle cx=\"\(fmt(f.midX))\" cy=\"\(fmt(f.midY))\" r=\"\(fmt(r))\" fill=\"none\"\(paint(node.fill, attribute: "stroke")) stroke-width=\"\(fmt(node.strokeWidth))\" stroke-linecap=\"round\" stroke-dasharray=\"\(fmt(c * 0.75)) \(fmt(c))\" transform=\"rotate(135 \(fmt(f.midX)) \(fmt(f.midY)))\"/>\n"
                let angle = (135 + 270 * node.value) * Double.pi / 180
                let (mx, my) = (f.midX + r * cos(angle), f.midY + r * sin(angle))
                out +=
                    "<circle cx=\"\(fmt(mx))\" cy=\"\(fmt(my))\" r=\"\(fmt(node.strokeWidth * 0.75))\"\(paint(node.foreground)) stroke=\"#000000\" stroke-opacity=\"0.35\" stroke-width=\"1\"/>\n"
            case "bar":
                let capsule = GlimpseWidgetV1.Shape(kind: .capsule)
                out += shape(capsule, f, paint: paint(node.fill)) + "\n"
                if node.value > 0 {
                    out +=
                        shape(
                            capsule, Rect(x: f.x, y: f.y, width: max(f.height, f.width * node.value), height: f.height),
                            paint: paint(node.foreground)) + "\n"
                }
            case "switch":
                out += shape(GlimpseWidgetV1.Shape(kind: .capsule), f, paint: paint(node.fill)) + "\n"
                let r = f.height / 2 - 2
                let cx = node.isOn ? f.maxX - r - 2 : f.x + r + 2
                out += "<circle cx=\"\(fmt(cx))\" cy=\"\(fmt(f.midY))\" r=\"\(fmt(r))\" fill=\"#ffffff\"/>\n"
            case "image": image(node, f)
            case "symbol":
                let side = min(f.width, f.height) * 0.8
                let box = Rect(x: f.midX - side / 2, y: f.midY - side / 2, width: side, height: side)
                if let glyph = SymbolGlyphs.glyph(node.systemName) {
                    // The icon in the symbol's colour, the SF name as its label.
                    out +=
                        "<svg x=\"\(fmt(box.x))\" y=\"\(fmt(box.y))\" width=\"\(fmt(side))\" height=\"\(fmt(side))\" viewBox=\"0 0 16 16\"\(paint(node.foreground)) role=\"img\" aria-label=\"\(escape(node.systemName))\"><title>\(escape(node.systemName))</title>\(glyph)</svg>\n"
                    break
                }
                out +=
                    "<rect x=\"\(fmt(box.x))\" y=\"\(fmt(box.y))\" width=\"\(fmt(side))\" height=\"\(fmt(side))\" rx=\"\(fmt(side / 4))\" fill=\"none\"\(paint(node.foreground, attribute: "stroke")) stroke-width=\"1.5\"><title>\(escape(node.systemName))</title></rect>\n"
                out +=
                    "<circle cx=\"\(fmt(f.midX))\" cy=\"\(fmt(f.midY))\" r=\"\(fmt(side / 6))\"\(paint(node.foreground))/>\n"
            case "text", "timerText", "dateText": text(node, f)
            default:
                if node.fill != nil {
                    if node.strokeWidth > 0 {
                        out +=
                            shape(
                                node.clipShape, f,
                                paint: " fill=\"none\"" + paint(node.fill, attribute: "stroke")
                                    + " stroke-width=\"\(fmt(node.strokeWidth))\"") + "\n"
                    } else {
                        out += shape(node.clipShape, f, paint: paint(node.fill)) + "\n"
                    }
                }
                if node.kind == "island", node.foreground != nil {
                    out +=
                        shape(
                            node.clipShape, f,
                            paint: " fill=\"none\"" + paint(node.foreground, attribute: "stroke")
                                + " stroke-width=\"1\"") + "\n"
                }
            }
        }

        mutating func image(_ node: GlimpseWidgetV1.LayoutNode, _ f: Rect) {
            let key = AssetKey(nodeName: node.assetName)
            let geometry = "x=\"\(fmt(f.x))\" y=\"\(fmt(f.y))\" width=\"\(fmt(f.width))\" height=\"\(fmt(f.height))\""
            if embedImages, !node.redacted, let asset = assets[key] ?? assets[AssetKey(bundleID: "", name: key.name)],
                let data = asset.data
            {
                out +=
                    "<image \(geometry) preserveAspectRatio=\"none\" xlink:href=\"data:\(escape(asset.mediaType));base64,\(Base64.encode(data))\"/>\n"
                return
            }
            out += "<rect \(geometry) fill=\"#8e8e93\" fill-opacity=\"0.25\" stroke=\"#8e8e93\" stroke-width=\"1\"/>\n"
            if !node.redacted && f.width > 20 && f.height > 10 {
                let size = min(11, f.height * 0.6)
                let label = key.name
                let measured = FontSpec(
                    size: size, weight: .regular, design: .default, monospacedDigit: false, leadingRatio: 1.2
                ).width(of: label)
                let length = min(measured, f.width - 4)
                out +=
                    "<text x=\"\(fmt(f.midX - length / 2))\" y=\"\(fmt(f.midY + size * 0.35))\" font-family=\"\(fontFamily)\" font-size=\"\(fmt(size))\" fill=\"#636366\" textLength=\"\(fmt(length))\" lengthAdjust=\"spacingAndGlyphs\">\(escape(label))</text>\n"
            }
        }

        mutating func text(_ node: GlimpseWidgetV1.LayoutNode, _ f: Rect) {
            let lines = node.text.split(separator: "\n", omittingEmptySubsequences: false)
            guard !lines.isEmpty else { return }
            var font = SVGWriter.font(node)
            font.monospacedDigit = node.kind != "text"
            let lineHeight = f.height / Double(lines.count)
            var widths = lines.map { font.width(of: $0) }
            // Plain text frames are exactly the widest line: fit the re-measured widths to it.
            if node.kind == "text", let widest = widths.max(), widest > 0 {
                widths = widths.map { $0 * f.width / widest }
            }
            let fill = paint(node.foreground)
            let family =
                node.fontDesign == .monospaced
                ? monoFamily
                : (node.fontDesign == .rounded ? roundedFamily : (node.fontDesign == .serif ? serifFamily : fontFamily))
            for (i, line) in lines.enumerated() where !line.isEmpty {
                let width = min(widths[i], f.width)
                let x: Double
                switch node.textAlignment {
                case .center: x = f.x + (f.width - width) / 2
                case .trailing: x = f.maxX - width
                default: x = f.x
                }
                let top = f.y + Double(i) * lineHeight
                if node.redacted {
                    let h = font.size * 0.7
                    out +=
                        "<rect x=\"\(fmt(x))\" y=\"\(fmt(top + (lineHeight - h) / 2))\" width=\"\(fmt(width))\" height=\"\(fmt(h))\" rx=\"\(fmt(h / 3))\"\(fill) fill-opacity=\"0.18\"/>\n"
                    continue
                }
                let baseline = top + lineHeight / 2 + font.size * 0.35
                if let runs = SVGWriter.emojiRuns(line) {
                    let measured = font.width(of: line)
                    emojiLine(
                        runs, x: x, baseline: baseline, font: font, fit: measured > 0 ? width / measured : 1,
                        family: fontFamily == family ? fontFamily : family, weight: fontWeight(node.fontWeight),
                        fill: fill)
                    continue
                }
                out +=
                    "<text x=\"\(fmt(x))\" y=\"\(fmt(baseline))\" font-family=\"\(fontFamily == family ? fontFamily : family)\" font-size=\"\(fmt(font.size))\" font-weight=\"\(fontWeight(node.fontWeight))\"\(fill)"
                out +=
                    " textLength=\"\(fmt(width))\" lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\">\(escape(String(line)))</text>\n"
            }
        }
    }
}

/// Standard base64 (RFC 4648) for `data:` URLs.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], table[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
