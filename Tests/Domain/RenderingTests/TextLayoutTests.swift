import GlimpseMessages
import Rendering
import Testing

/// Text: style sizes at the default Dynamic Type size, wrapping, `lineLimit` truncation
/// with "…", and `minimumScaleFactor` shrinking before truncating.
@Suite struct TextLayoutTests {
    let r = renderer()

    @Test(arguments: [
        (GlimpseWidgetV1.FontTextStyle.largeTitle, 34.0), (.title, 28), (.title2, 22), (.title3, 20), (.headline, 17),
        (.body, 17), (.callout, 16), (.subheadline, 15), (.footnote, 13), (.caption, 12), (.caption2, 11),
    ])
    func textStylesHaveTheirDefaultSizes(style: GlimpseWidgetV1.FontTextStyle, size: Double) {
        let node = r.view(text("Aa").with(font(style)), family: .systemSmall).tree.node(text: "Aa")!
        #expect(node.fontSize == size)
        #expect(node.height >= size)
    }

    @Test func headlineIsSemiboldAndFontWeightOverrides() {
        let headline = r.view(text("H").with(font(.headline)), family: .systemSmall).tree.node(text: "H")!
        #expect(headline.fontWeight == .semibold)
        let bold = r.view(text("B").with(font(.caption), .fontWeight(.bold)), family: .systemSmall).tree.node(
            text: "B")!
        #expect(bold.fontWeight == .bold && bold.fontSize == 12)
        let sized = GlimpseWidgetV1.Font(size: 40, weight: .heavy)
        let system = r.view(text("S").with(.font(sized)), family: .systemSmall).tree.node(text: "S")!
        #expect(system.fontSize == 40 && system.fontWeight == .heavy)
    }

    @Test func widerTextIsWider() {
        let tree = r.view(
            vstack([text("iiii"), text("WWWW"), text("WWWW").with(font(.body, weight: .bold)).id("bold")]),
            family: .systemSmall
        ).tree
        #expect(tree.node(text: "iiii")!.width < tree.node(text: "WWWW")!.width)
        #expect(tree.node(id: "bold")!.width > tree.node(text: "WWWW")!.width)
    }

    @Test func longTextWrapsToTheProposedWidth() {
        let long = "The quick brown fox jumps over the lazy dog"
        let node = r.view(text(long), family: .systemSmall).tree.first { $0.kind == "text" }!
        #expect(node.lineCount > 1)
        #expect(node.width <= 126)
        #expect(!node.truncated)
        #expect(node.text.split(separator: "\n").joined(separator: " ") == long)
    }

    @Test func lineLimitTruncatesWithAnEllipsis() {
        let long = "This is a very long line of text that cannot possibly fit"
        let node = r.view(text(long).with(.lineLimit(1)), family: .systemSmall).tree.first { $0.kind == "text" }!
        #expect(node.truncated)
        #expect(node.lineCount == 1)
        #expect(node.text.hasSuffix("…"))
        #expect(node.text.hasPrefix("This is"))
        #expect(node.width <= 126)
        let two = r.view(text(long).with(.lineLimit(2)), family: .systemSmall).tree.first { $0.kind == "text" }!
        #expect(two.lineCount == 2 && two.truncated && two.text.hasSuffix("…"))
    }

    @Test func textThatFitsIsNotTruncated() {
        let node = r.view(text("Short").with(.lineLimit(1)), family: .systemSmall).tree.node(text: "Short")!
        #expect(!node.truncated)
    }

    @Test func heightLimitsLinesToo() {
        let long = String(repeating: "word ", count: 60)
        let view = text(long).with(frame(height: 40))
        let node = r.view(view, family: .systemSmall).tree.first { $0.kind == "text" }!
        #expect(node.lineCount == 1)  // a 22.67-pt body line fits once in 40
        #expect(node.truncated)
    }

    @Test func minimumScaleFactorShrinksBeforeTruncating() {
        let view = text("Headline text").with(font(.title), .lineLimit(1), .minimumScaleFactor(0.5))
        let node = r.view(view, family: .systemSmall).tree.first { $0.kind == "text" }!
        #expect(!node.truncated)
        #expect(node.fontSize < 28 && node.fontSize >= 14)
        #expect(node.width <= 126)
        #expect(node.text == "Headline text")
    }

    @Test func minimumScaleFactorStopsAtItsFloorAndThenTruncates() {
        let view = text("A headline far too long to fit even at half size").with(
            font(.title), .lineLimit(1), .minimumScaleFactor(0.5))
        let node = r.view(view, family: .systemSmall).tree.first { $0.kind == "text" }!
        #expect(node.fontSize == 14)
        #expect(node.truncated)
    }

    @Test func multilineAlignmentIsRecorded() {
        let node = r.view(text("Centered").with(.multilineTextAlignment(.center)), family: .systemSmall).tree.node(
            text: "Centered")!
        #expect(node.textAlignment == .center)
    }
}
