internal import GlimpseMessages

/// Emoji in SVG text. The layout measures an emoji as 1.25 em (Apple Color Emoji's
/// advance); a renderer without a color emoji font draws whatever fallback glyph (or a
/// "missing glyph" box) it has, at its own width. Because each line is fitted to its
/// measured width with `textLength`, one foreign-width glyph would squeeze or stretch the
/// whole line — so a line with emoji is written as runs, each fitted to its own measured
/// width, the emoji runs naming the emoji fonts first.
extension SVGWriter {
    static let emojiFamily = "'Apple Color Emoji', 'Noto Color Emoji', 'Segoe UI Emoji', 'DejaVu Sans', sans-serif"

    struct TextRun: Equatable {
        var text: String
        var isEmoji: Bool
    }

    /// Whether a character is drawn from an emoji font (the scalars the layout measures at
    /// 1.25 em: the pictographs and the symbol blocks).
    static func isEmoji(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first?.value else { return false }
        return (0x1F000...0x1FAFF).contains(first) || (0x2600...0x27BF).contains(first)
    }

    /// The line split into runs of emoji and of other text; nil when it has no emoji.
    static func emojiRuns(_ line: Substring) -> [TextRun]? {
        guard line.contains(where: isEmoji) else { return nil }
        var runs: [TextRun] = []
        for character in line {
            let emoji = isEmoji(character)
            if let last = runs.last, last.isEmoji == emoji {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append(TextRun(text: String(character), isEmoji: emoji))
            }
        }
        return runs
    }
}

extension SVGWriter.Writer {
    /// One line as runs from `x`, each run's measured width scaled by `fit` (the line's
    /// drawn width over its measured width).
    mutating func emojiLine(
        _ runs: [SVGWriter.TextRun], x: Double, baseline: Double, font: FontSpec, fit: Double, family: String,
        weight: Int, fill: String
    ) {
        var left = x
        for run in runs {
            let width = font.width(of: run.text) * fit
            let face = run.isEmoji ? SVGWriter.emojiFamily : family
            // Spaces at a run's ends are advanced over, not drawn: fitted into the run's
            // textLength, a renderer that collapses or measures them otherwise would stretch
            // the glyphs beside them ("2 " before an emoji drew a wide "2").
            let core = run.text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            let drawn = String(core)
            let lead = font.width(of: String(run.text.prefix(while: \.isWhitespace))) * fit
            let coreWidth = font.width(of: drawn) * fit
            if coreWidth > 0 {
                out +=
                    "<text x=\"\(SVGWriter.fmt(left + lead))\" y=\"\(SVGWriter.fmt(baseline))\" font-family=\"\(face)\" font-size=\"\(SVGWriter.fmt(font.size))\" font-weight=\"\(weight)\"\(fill)"
                out +=
                    " textLength=\"\(SVGWriter.fmt(coreWidth))\" lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\">\(SVGWriter.escape(drawn))</text>\n"
            }
            left += width
        }
    }
}
