import Foundation
import GlimpseMessages
import Rendering
import Testing

/// Layout and drawing rules the seed apps showed wrong, each pinned where SwiftUI (or the
/// system around it) puts things.
@Suite struct SeedRuleTests {
    let r = renderer()

    func timer(_ seconds: Double) -> View {
        var v = View()
        v.kind = .timerText(
            GlimpseWidgetV1.TimerText(
                timerInterval: GlimpseWidgetV1.DateInterval(
                    start: timestamp(t0), end: timestamp(t0.addingTimeInterval(seconds))),
                countsDown: true))
        return v
    }

    /// `Image(…).resizable().scaledToFill().frame(width:height:).clipShape(…)`: the fill
    /// image overflows its frame and the clip cuts it at the frame, not at the image.
    @Test func clipShapeClipsAtTheFrameNotAtTheOverflowingImage() {
        let poster = image("poster", resizable: true, mode: .fill)
            .with(
                frame(width: 200, height: 60),
                .clipShape(GlimpseWidgetV1.Shape(kind: .roundedRectangle, cornerRadius: 12)))
        let assets = [AssetKey(bundleID: "b", name: "poster"): AssetImage(pixelWidth: 300, pixelHeight: 450)]
        let tree = renderer(assets: assets).view(poster, family: .systemMedium, bundleID: "b").tree
        let drawn = tree.first { $0.kind == "image" }!
        #expect(drawn.height > 60)  // filled: 200 wide → 300 tall
        let clip = tree.first { $0.clipShape?.cornerRadius == 12 }!
        #expect(near(clip.width, 200) && near(clip.height, 60))
        #expect(clip.y >= drawn.y && clip.maxY <= drawn.maxY)
    }

    /// `.clipShape(Circle())` on an image (a leaf) is drawn as a clip path in the SVG.
    @Test func aClippedImageIsClippedInTheSVG() {
        let avatar = image("Tim", resizable: true, mode: .fill).with(
            frame(width: 36, height: 36), .clipShape(GlimpseWidgetV1.Shape(kind: .circle)))
        let svg = SVGWriter.document(r.view(avatar, family: .systemSmall))
        #expect(svg.contains("<clipPath id=\"clip2\"><circle cx=\"79\" cy=\"79\" r=\"18\"/></clipPath>"))
        #expect(svg.contains("<g clip-path=\"url(#clip2)\">\n<rect x=\"61\" y=\"61\" width=\"36\" height=\"36\""))
    }

    /// A ticking timer between two flexible bars (the pizza's delivery bar) keeps its whole
    /// "30:00" even when the equal share it is offered is narrower.
    @Test func aTimerIsNeverNarrowerThanItsLine() {
        let bar = rectangle(.gray).with(frame(height: 6))
        let row = hstack([bar, bar, timer(1800), bar, bar])
        let tree = r.view(row, family: .systemSmall).tree
        let t = tree.first { $0.kind == "timerText" }!
        #expect(t.text == "30:00" && t.width >= 17 * (4 * 0.58 + 0.278) - 0.01)
        let bars = tree.all.filter { $0.kind == "shape" }
        #expect(bars.count == 4 && bars.allSatisfy { $0.maxX <= t.x + 0.01 || $0.x >= t.maxX - 0.01 })
    }

    /// Compact island content hugs the outer ends (inset 6 pt from the rounded edge),
    /// vertically centered; the camera side stays free.
    @Test func compactContentHugsTheIslandsOuterEnds() {
        var island = GlimpseWidgetV1.DynamicIslandViews()
        island.compactLeading = symbol("film")
        island.compactTrailing = text("42m")
        var views = GlimpseWidgetV1.ActivityViews()
        views.dynamicIsland = island
        let tree = r.activity(views, presentation: .compact).tree
        let leading = tree.node(name: "compactLeading")!, trailing = tree.node(name: "compactTrailing")!
        let icon = leading.first { $0.kind == "symbol" }!, minutes = tree.node(text: "42m")!
        #expect(near(icon.x, leading.x + 6) && near(minutes.maxX, trailing.maxX - 6))
        #expect(near(icon.y + icon.height / 2, 36.67 / 2) && near(minutes.y + minutes.height / 2, 36.67 / 2))
    }

    /// The Lock Screen clock is the default face (SF Pro), semibold, not the rounded one.
    @Test func theLockScreenClockIsTheDefaultFace() {
        let tree = renderer(dark: true).lockScreen(Samples.screen(now: t0), views: [:]).tree
        let clock = tree.node(name: "clock")!
        #expect(clock.fontDesign == .default && clock.fontWeight == .semibold && clock.fontSize == 88)
    }

    /// `.containerBackground(.fill.tertiary)`: a translucent fill over the widget's own
    /// platter — light gray in light mode, dark gray in dark — opaque, not see-through.
    @Test func aTranslucentContainerBackgroundTintsTheWidgetPlatter() {
        let view = text("Coco").with(
            .containerBackground(
                GlimpseWidgetV1.ContainerBackground(
                    style: GlimpseWidgetV1.ShapeStyle(kind: .fill(.tertiary)), placement: .widget)))
        func fill(dark: Bool) -> GlimpseWidgetV1.ResolvedColor? {
            guard case .color(let c)? = renderer(dark: dark).view(view, family: .systemMedium).tree.fill?.kind else {
                return nil
            }
            return c
        }
        let light = fill(dark: false)!, dark = fill(dark: true)!
        #expect(light.alpha == 1 && dark.alpha == 1)
        #expect(light.red > 0.9 && light.red < 0.97)  // 0.12 of #767680 over white
        #expect(dark.red > 0.15 && dark.red < 0.25)  // 0.24 of #767680 over #1C1C1E
    }

    /// A line with emoji is written as runs, so an emoji drawn at a fallback font's width
    /// cannot squeeze the rest of the line; the text run keeps its measured width (body,
    /// 17 pt: a digit 0.58 em), the emoji its 1.25 em. The space between is advanced over,
    /// not drawn: fitted into the run, it stretched the "2" (a space a renderer measures
    /// otherwise, or drops, left the digit to fill its width).
    @Test func emojiAreTheirOwnRunsInTheSVG() throws {
        let svg = SVGWriter.document(r.view(text("2 🍕"), family: .systemSmall))
        let texts = svg.split(separator: "\n").filter { $0.hasPrefix("<text") }
        #expect(texts.count == 2)
        #expect(texts.first?.contains(">2</text>") == true && texts.first?.contains("textLength=\"9.86\"") == true)
        #expect(
            texts.last?.contains("Apple Color Emoji") == true && texts.last?.contains("textLength=\"21.25\"") == true)
        // The emoji starts after the digit and the space: 14.59 pt on from the digit.
        func x(_ line: Substring?) throws -> Double {
            let text = try #require(line)
            let start = try #require(text.firstRange(of: "x=\"")).upperBound
            return try #require(Double(text[start...].prefix(while: { $0 != "\"" })))
        }
        #expect(abs(try x(texts.last) - x(texts.first) - 14.59) < 0.02)
    }
}
