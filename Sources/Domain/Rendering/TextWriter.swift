package import GlimpseMessages

/// A layout as box drawing for a terminal ("one screen at a glance"): points map to a
/// character grid (one column per 6 pt and one row per 13 pt, or scaled to `columns`);
/// widgets, islands and activities are boxes (┌─┐│└┘), the expanded Dynamic Island's
/// regions are the stretches of it their frames cover; texts sit where their frames are,
/// cut with "…" at the edge of the box they are in. An emoji or a CJK character takes two
/// columns, as terminals draw them, so the boxes' right edges stay straight. Deterministic.
package enum TextWriter {
    package static func text(_ layout: GlimpseWidgetV1.Layout, columns: Int? = nil) -> String {
        let size = layout.size ?? .init()
        let (width, height) = (bounded(size.width, canvasReach), bounded(size.height, canvasReach))
        let cols = max(8, min(columns ?? Int((width / 6).rounded(.up)), Int(canvasReach)))
        let sx = max(width, 1) / Double(cols)
        let sy = sx * 13.0 / 6.0
        let rows = max(1, Int((height / sy).rounded(.up)))
        var canvas = Canvas(columns: cols, rows: rows, sx: sx, sy: sy)
        if let root = layout.root {
            canvas.draw(root, clip: Canvas.Box(c0: 0, r0: 0, c1: cols - 1, r1: rows - 1))
        }
        return canvas.rendered()
    }

    /// How far the drawing reaches, in points: a canvas is at most `canvasReach` wide and
    /// tall, frames are cut at `frameReach` points. An app's view can ask for any size
    /// (`.frame(width: 1e300)`); the grid and every cell number stay small and finite.
    static let canvasReach = 4096.0
    static let frameReach = 100_000.0

    static func bounded(_ v: Double, _ reach: Double) -> Double {
        v.isNaN ? 0 : min(max(v, -reach), reach)
    }

    struct Canvas {
        struct Box {
            var c0, r0, c1, r1: Int
        }

        let columns: Int
        let rows: Int
        let sx: Double
        let sy: Double
        var grid: [[Character]]

        init(columns: Int, rows: Int, sx: Double, sy: Double) {
            self.columns = columns
            self.rows = rows
            self.sx = sx
            self.sy = sy
            grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        }

        static let boxKinds: Set<String> = ["widget", "island", "activity"]

        func box(_ f: Rect) -> Box {
            let c0 = Int((f.x / sx).rounded()), r0 = Int((f.y / sy).rounded())
            let c1 = max(c0 + 1, Int((f.maxX / sx).rounded()) - 1), r1 = max(r0 + 1, Int((f.maxY / sy).rounded()) - 1)
            return Box(c0: c0, r0: r0, c1: c1, r1: r1)
        }

        /// Whether a box drawn with a border keeps a row inside it.
        func roomInside(_ b: Box) -> Bool { b.r1 - b.r0 >= 2 }

        /// Every cell a frame touches, within `clip`.
        func cells(_ f: Rect, within clip: Box) -> Box {
            let c0 = Int((f.x / sx).rounded(.down)), r0 = Int((f.y / sy).rounded(.down))
            let c1 = Int((f.maxX / sx).rounded(.up)) - 1, r1 = Int((f.maxY / sy).rounded(.up)) - 1
            return Box(
                c0: max(clip.c0, c0), r0: max(clip.r0, r0), c1: min(clip.c1, max(c0, c1)),
                r1: min(clip.r1, max(r0, r1)))
        }

        /// The second cell of a two-column character (not printed).
        static let continuation: Character = "\u{FFFF}"

        /// The columns a terminal gives a character: two for emoji shown as emoji (Emoji_Presentation,
        /// or any with the emoji variation selector) and East Asian wide and fullwidth characters.
        static func width(_ character: Character) -> Int {
            guard let first = character.unicodeScalars.first else { return 1 }
            if first.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") { return 2 }
            switch first.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6, 0x20000...0x3FFFD:
                return 2
            default:
                return 1
            }
        }

        mutating func put(_ c: Character, _ col: Int, _ row: Int) {
            guard row >= 0, row < rows, col >= 0, col < columns else { return }
            let wide = c != Self.continuation && Self.width(c) == 2
            guard !wide || col + 1 < columns else { return }
            vacate(col, row)
            grid[row][col] = c
            if wide {
                vacate(col + 1, row)
                grid[row][col + 1] = Self.continuation
            }
        }

        /// Before a cell is written: the half of a two-column character it held goes, and
        /// the other half becomes a space.
        private mutating func vacate(_ col: Int, _ row: Int) {
            if grid[row][col] == Self.continuation, col > 0 {
                grid[row][col - 1] = " "
            } else if Self.width(grid[row][col]) == 2, col + 1 < columns, grid[row][col + 1] == Self.continuation {
                grid[row][col + 1] = " "
            }
            grid[row][col] = " "
        }

        mutating func draw(_ node: GlimpseWidgetV1.LayoutNode, clip: Box, inPill: Bool = false) {
            let whole = Rect(node.frame)
            let (x, y) = (bounded(whole.x, frameReach), bounded(whole.y, frameReach))
            let f = Rect(
                x: x, y: y, width: bounded(whole.x + whole.width, frameReach) - x,
                height: bounded(whole.y + whole.height, frameReach) - y)
            var inner = clip
            if inPill && node.kind == "region" {
                // Inside a compact or minimal pill a region is a stretch of it, split by bars.
                let b = box(f)
                if node.name == "camera" {
                    for r in clip.r0...max(clip.r0, clip.r1) {
                        put("│", b.c0, r)
                        put("│", b.c1, r)
                    }
                }
                inner = Box(c0: max(clip.c0, b.c0), r0: clip.r0, c1: min(clip.c1, b.c1), r1: clip.r1)
            } else if node.kind == "region" || (Self.boxKinds.contains(node.kind) && !roomInside(box(f))) {
                // An expanded region has no border of its own (the island's outline frames
                // them), nor has a box one or two rows high (an accessoryInline widget: a line
                // of text after the Lock Screen's date, as iOS draws it): a border would leave
                // no room inside.
                inner = cells(f, within: clip)
            } else if Self.boxKinds.contains(node.kind) {
                let b = box(f)
                for c in (b.c0 + 1)..<b.c1 {
                    put("─", c, b.r0)
                    put("─", c, b.r1)
                }
                for r in (b.r0 + 1)..<b.r1 {
                    put("│", b.c0, r)
                    put("│", b.c1, r)
                }
                put("┌", b.c0, b.r0)
                put("┐", b.c1, b.r0)
                put("└", b.c0, b.r1)
                put("┘", b.c1, b.r1)
                inner = Box(
                    c0: max(clip.c0, b.c0 + 1), r0: max(clip.r0, b.r0 + 1), c1: min(clip.c1, b.c1 - 1),
                    r1: min(clip.r1, b.r1 - 1))
            }
            switch node.kind {
            case "text", "timerText", "dateText":
                let lines = node.text.split(separator: "\n", omittingEmptySubsequences: false)
                let lineHeight = f.height / Double(max(lines.count, 1))
                for (i, line) in lines.enumerated() {
                    let content =
                        node.redacted
                        ? String(repeating: "▒", count: max(1, Int((Double(line.count) * 0.6).rounded())))
                        : String(line)
                    write(
                        content,
                        frame: Rect(x: f.x, y: f.y + Double(i) * lineHeight, width: f.width, height: lineHeight),
                        alignment: node.textAlignment, clip: inner)
                }
            case "symbol": write("◆", frame: f, alignment: .center, clip: inner)
            case "image": write("▣", frame: f, alignment: .center, clip: inner)
            case "switch": write(node.isOn ? "(●)" : "(○)", frame: f, alignment: .center, clip: inner)
            case "bar":
                let n = max(2, Int((f.width / sx).rounded()))
                let filled = Int((Double(n) * bounded(node.value, 1).magnitude).rounded())
                write(
                    String(repeating: "▰", count: filled) + String(repeating: "▱", count: n - filled), frame: f,
                    alignment: .leading, clip: inner)
            case "arc":
                write(
                    "◠\(Int((bounded(node.value, 1) * 100).rounded()))%", frame: f, alignment: .center, clip: inner,
                    row: .top)
            case "ring":
                write(
                    "◔\(Int((bounded(node.value, 1) * 100).rounded()))%", frame: f, alignment: .center, clip: inner,
                    row: .top)
            default: break
            }
            let pill = node.kind == "island" && node.name != "expanded"
            for child in node.children { draw(child, clip: inner, inPill: pill) }
        }

        enum Row { case middle, top }

        mutating func write(
            _ s: String, frame f: Rect, alignment: GlimpseWidgetV1.TextAlignment, clip: Box, row: Row = .middle
        ) {
            guard clip.c1 >= clip.c0, clip.r1 >= clip.r0 else { return }
            var r = Int(((row == .middle ? f.midY : f.y + sy / 2) / sy).rounded(.down))
            r = min(max(r, clip.r0), clip.r1)
            let chars = Array(s)
            let width = chars.reduce(0) { $0 + Self.width($1) }
            var c: Int
            switch alignment {
            case .center: c = Int((f.midX / sx).rounded()) - width / 2
            case .trailing: c = Int((f.maxX / sx).rounded()) - width
            default: c = Int((f.x / sx).rounded())
            }
            c = max(c, clip.c0)
            let room = clip.c1 - c + 1
            guard room > 0 else { return }
            var out = chars
            if width > room {
                // As many characters as fit in all but one column, then "…".
                var used = 0
                out =
                    Array(
                        chars.prefix { character in
                            used += Self.width(character)
                            return used <= room - 1
                        }) + ["…"]
            }
            for ch in out {
                put(ch, c, r)
                c += Self.width(ch)
            }
        }

        func rendered() -> String {
            var lines = grid.map { row -> String in
                var s = String(row.filter { $0 != Self.continuation })
                while s.last == " " { s.removeLast() }
                return s
            }
            while lines.last == "" { lines.removeLast() }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
