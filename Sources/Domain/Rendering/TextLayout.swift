/// Text broken into lines at a width, as SwiftUI's Text does it: greedy word wrapping,
/// words longer than the line broken by characters, at most `maxLines` lines, the last
/// one ending in "…" when text is left over.
///
/// A `PreparedText` measures each word once (at 1 pt); every later layout at another width
/// or scale costs one pass over the words, so a stack asking a text for its size several
/// times never re-measures characters.
struct PreparedText {
    struct Word {
        var text: Substring
        var unitWidth: Double
    }

    let paragraphs: [[Word]]
    let unitSpace: Double
    let font: FontSpec
    private let unitFont: FontSpec

    init(_ text: String, font: FontSpec) {
        self.font = font
        let unit = font.scaled(1 / font.size)
        self.unitFont = unit
        unitSpace = unit.width(of: " ")
        paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph in
            paragraph.split(separator: " ").map { Word(text: $0, unitWidth: unit.width(of: $0)) }
        }
    }

    struct Lines: Equatable {
        var lines: [String]
        var width: Double
        var truncated: Bool
        var font: FontSpec
        var height: Double { Double(max(lines.count, 1)) * font.lineHeight }
    }

    /// The lines at `scale` × the font's size within `maxWidth` (nil: no wrapping) and
    /// `maxLines` (nil: no limit).
    func layout(maxWidth: Double?, maxLines: Int?, scale: Double = 1) -> Lines {
        let font = self.font.scaled(scale)
        let size = font.size
        let limit = maxWidth.map { $0.isFinite ? max($0, 0) : Double.infinity } ?? .infinity
        var lines: [(text: String, width: Double)] = []
        let space = unitSpace * size
        for words in paragraphs {
            var current = ""
            var width = 0.0
            for word in words {
                let w = word.unitWidth * size
                if !current.isEmpty && width + space + w <= limit + 0.001 {
                    current += " "
                    current += word.text
                    width += space + w
                    continue
                }
                if !current.isEmpty { lines.append((current, width)) }
                if w <= limit + 0.001 {
                    current = String(word.text)
                    width = w
                } else {
                    // A word wider than the line breaks between characters.
                    (current, width) = breakWord(word.text, font: font, limit: limit, into: &lines)
                }
            }
            lines.append((current, width))
        }
        var truncated = false
        if let maxLines, maxLines > 0, lines.count > maxLines {
            truncated = true
            let rest = lines[(maxLines - 1)...].map(\.text).joined(separator: " ")
            lines.removeLast(lines.count - maxLines + 1)
            lines.append(Self.truncate(rest, font: font, limit: limit))
        } else if let last = lines.last, last.width > limit + 0.001 {
            truncated = true
            lines[lines.count - 1] = Self.truncate(last.text, font: font, limit: limit)
        }
        let widest = lines.reduce(0.0) { max($0, $1.width) }
        return Lines(lines: lines.map(\.text), width: widest, truncated: truncated, font: font)
    }

    private func breakWord(
        _ word: Substring, font: FontSpec, limit: Double, into lines: inout [(text: String, width: Double)]
    ) -> (String, Double) {
        var current = ""
        var width = 0.0
        for character in word {
            let w = font.width(of: String(character))
            if !current.isEmpty && width + w > limit + 0.001 {
                lines.append((current, width))
                current = ""
                width = 0
            }
            current.append(character)
            width += w
        }
        return (current, width)
    }

    /// `text` cut to fit `limit` with a trailing "…" (one pass over the characters).
    static func truncate(_ text: String, font: FontSpec, limit: Double) -> (text: String, width: Double) {
        let full = font.width(of: text)
        if full <= limit + 0.001 && !text.isEmpty { return (text + "…", min(full + font.width(of: "…"), limit)) }
        let ellipsis = font.width(of: "…")
        var kept = ""
        var width = 0.0
        for character in text {
            let w = font.width(of: String(character))
            if width + w + ellipsis > limit + 0.001 { break }
            kept.append(character)
            width += w
        }
        while kept.last == " " {
            kept.removeLast()
            width -= font.width(of: " ")
        }
        return (kept + "…", width + ellipsis)
    }
}
