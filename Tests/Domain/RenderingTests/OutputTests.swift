import Foundation
import GlimpseMessages
import Rendering
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The SVG is well-formed standalone XML that escapes text; the terminal text shows the
/// widget's strings inside box-drawing frames; both are deterministic.
@Suite struct OutputTests {
    let r = renderer()

    func parses(_ svg: String) -> (ok: Bool, root: String?) {
        final class Delegate: NSObject, XMLParserDelegate {
            var root: String?
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if root == nil { root = name }
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let delegate = Delegate()
        parser.delegate = delegate
        let ok = parser.parse()
        return (ok, delegate.root)
    }

    var sample: View {
        vstack(
            [
                text("<Tom & Jerry> \"quoted\" 'single'").with(font(.headline)),
                hstack([symbol("bolt.fill"), text("Charging"), spacer(), text("80%")]),
                rectangle(.green).with(frame(height: 8), .cornerRadius(4)),
            ], h: .leading)
    }

    @Test func svgIsWellFormedAndEscapes() {
        let svg = SVGWriter.document(r.view(sample, family: .systemMedium))
        let parsed = parses(svg)
        #expect(parsed.ok)
        #expect(parsed.root == "svg")
        #expect(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("viewBox=\"0 0 338 158\""))
        #expect(svg.contains("&lt;Tom &amp; Jerry&gt;"))
        #expect(!svg.contains("<Tom"))
        #expect(svg.contains("lengthAdjust=\"spacingAndGlyphs\""))
        #expect(svg.contains("aria-label="))
    }

    @Test(arguments: [ActivityPresentationKind.compact, .minimal, .expanded, .lockScreen])
    func everyActivityPresentationIsWellFormed(presentation: ActivityPresentationKind) {
        var island = GlimpseWidgetV1.DynamicIslandViews()
        island.compactLeading = text("a&b")
        island.expandedBottom = GlimpseWidgetV1.ExpandedRegion(view: text("<bottom>"))
        let views = GlimpseWidgetV1.ActivityViews(lockScreen: text("x < y"), dynamicIsland: island)
        #expect(parses(SVGWriter.document(r.activity(views, presentation: presentation))).ok)
    }

    @Test func svgIsDeterministicWithShortNumbers() {
        let a = SVGWriter.document(r.view(sample, family: .systemMedium))
        let b = SVGWriter.document(renderer().view(sample, family: .systemMedium))
        #expect(a == b)
        // Our own numbers; an SF Symbol's glyph is the icon set's path data, as it comes.
        let own = a.split(separator: "\n").filter { !$0.contains("viewBox=\"0 0 16 16\"") }.joined(separator: "\n")
        let numbers = own.split(whereSeparator: { !"0123456789.".contains($0) }).filter { $0.contains(".") }
        #expect(numbers.allSatisfy { $0.split(separator: ".", omittingEmptySubsequences: false).last!.count <= 2 })
    }

    @Test func textOutputShowsTheStringsInBoxes() {
        let out = TextWriter.text(r.view(sample, family: .systemMedium))
        #expect(out.contains("Charging"))
        #expect(out.contains("80%"))
        #expect(out.contains("┌") && out.contains("┘") && out.contains("│"))
        #expect(out == TextWriter.text(r.view(sample, family: .systemMedium)))
        let lines = out.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 57 })  // 338 / 6, rounded up
    }

    @Test func textOutputScalesToColumnsAndCutsWithEllipsis() {
        let out = TextWriter.text(
            r.view(text("A rather long sentence that will not fit").with(.lineLimit(1)), family: .systemSmall),
            columns: 16)
        let lines = out.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 16 })
        #expect(out.contains("…"))
    }

    /// Columns as a terminal draws them: an emoji or a CJK character takes two.
    static func columns(_ line: Substring) -> Int {
        line.reduce(0) { width, character in
            let first = character.unicodeScalars.first!
            let wide =
                first.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}")
                || (0x4E00...0x9FFF).contains(first.value)
            return width + (wide ? 2 : 1)
        }
    }

    @Test func emojiTakeTwoColumnsAndTheBoxStaysStraight() {
        let view = vstack(
            [
                text("2 🍕"), text("Cleared ⚡️"), text("東京 → 大阪"),
                text("Paid $24.99 + $9.9 Delivery Fee 💸💸💸💸💸💸💸💸💸💸💸💸💸💸💸💸").with(.lineLimit(1)),
            ], h: .leading)
        let out = TextWriter.text(r.view(view, family: .systemMedium))
        let lines = out.split(separator: "\n")
        let border = lines.first { $0.contains("┌") }!
        let right = Self.columns(border)
        // Every row inside the box ends with its border at the same column as the corner.
        let rows = lines.filter { $0.last == "│" }
        #expect(rows.count >= 4)
        #expect(rows.allSatisfy { Self.columns($0) == right }, "\(out)")
        #expect(out.contains("2 🍕") && out.contains("Cleared ⚡️") && out.contains("東京 → 大阪"))
        // Cut with "…" inside the box: no half of an emoji, no border overwritten.
        #expect(out.contains("…"))
        // A narrow character written over half of a wide one leaves a space, not half a glyph.
        let cut = TextWriter.text(r.view(text("🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕"), family: .systemSmall), columns: 9)
        #expect(cut.split(separator: "\n").allSatisfy { Self.columns($0) <= 9 }, "\(cut)")
    }

    /// An accessoryInline widget is one line of text after the Lock Screen's date, as iOS
    /// draws it: too low for a box with a border, its text is written on the date's row
    /// (it was an empty box over the date).
    @Test func theInlineAccessoryIsTextOnTheDateRow() throws {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let out = TextWriter.text(r.lockScreen(Samples.screen(now: now), views: [:]))
        let row = try #require(out.split(separator: "\n").first { $0.contains("Partly Cloudy") }, "\(out)")
        #expect(row.contains("72°"))
        #expect(!row.contains("┌") && !row.contains("└") && !row.contains("│"))
        // The date before it is whole, on the same row.
        #expect(row.contains(",") && !row.contains("…"), "\(row)")
        // The other widgets keep their boxes.
        #expect(out.contains("Next: Standup") && out.contains("┌"))
    }
}
