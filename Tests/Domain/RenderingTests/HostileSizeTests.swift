import GlimpseMessages
import Rendering
import Testing

/// An app's view may ask for any size (found by the fuzzer: Fuzz/Crashers/render): both
/// outputs draw it, with every number finite and the text grid small.
@Suite("Views that ask for absurd sizes still draw")
struct HostileSizeTests {
    @Test("a frame past Int's range draws as SVG and as text", arguments: [1e300, -1e300, 1e19, 9.3e16])
    func hugeFrame(_ size: Double) {
        let view = vstack([text("Coco").with(frame(width: size, height: size)), text("12,345 steps")]).with(padding())
        for family in [GlimpseWidgetV1.WidgetFamily.systemSmall, .systemLarge, .accessoryRectangular] {
            let layout = renderer().view(view, family: family)
            let svg = SVGWriter.document(layout)
            #expect(svg.contains("<svg") && svg.hasSuffix("</svg>\n"))
            #expect(!svg.contains("inf") && !svg.contains("nan"))
            let lines = TextWriter.text(layout).split(separator: "\n")
            #expect(lines.count < 1_000 && lines.allSatisfy { $0.count <= 4096 })
        }
    }

    @Test("a Live Activity as tall as the numbers go draws as text")
    func hugeActivity() {
        var views = GlimpseWidgetV1.ActivityViews()
        views.lockScreen = text("Tim").with(frame(height: 1e300))
        let layout = renderer().activity(views, presentation: .lockScreen)
        #expect(SVGWriter.document(layout).contains("<svg"))
        #expect(TextWriter.text(layout).split(separator: "\n").count < 1_000)
    }
}
