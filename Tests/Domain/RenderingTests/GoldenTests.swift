import Foundation
import GlimpseMessages
import GoldenFiles
import Rendering
import Testing

/// Goldens: the SVG, text and Layout JSON of a widget, a Live Activity and the screens,
/// byte for byte. `GLIMPSE_UPDATE_GOLDEN=1 swift test …` rewrites them.
@Suite struct GoldenTests {
    let golden = GoldenFolder(besides: #filePath)

    func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try golden.check(name, actual, sourceLocation: sourceLocation)
    }

    @Test func weatherWidget() throws {
        let layout = renderer().view(Samples.weather, family: .systemMedium, bundleID: "com.example.weather")
        try check("weather-medium.svg", SVGWriter.document(layout))
        try check("weather-medium.txt", TextWriter.text(layout))
        try check("weather-medium.json", PrettyJSON.format(layout.jsonBytes()))
    }

    @Test func deliveryActivity() throws {
        let views = Samples.delivery(now: t0)
        let r = renderer()
        let expanded = r.activity(views, presentation: .expanded)
        try check("delivery-expanded.svg", SVGWriter.document(expanded))
        try check("delivery-expanded.json", PrettyJSON.format(expanded.jsonBytes()))
        try check("delivery-lockscreen.svg", SVGWriter.document(r.activity(views, presentation: .lockScreen)))
        try check("delivery-compact.txt", TextWriter.text(r.activity(views, presentation: .compact)))
        try check("delivery-expanded.txt", TextWriter.text(expanded))
    }

    /// As text, the expanded regions have no borders of their own: a region a line or two
    /// high still shows what is in it (it used to be a box with no room inside).
    @Test func expandedRegionsShowTheirTextAsText() throws {
        let expanded = renderer().activity(Samples.delivery(now: t0), presentation: .expanded)
        let text = TextWriter.text(expanded)
        var texts: [String] = []
        func collect(_ node: GlimpseWidgetV1.LayoutNode) {
            if ["text", "timerText", "dateText"].contains(node.kind), !node.text.isEmpty, !node.text.contains("\n") {
                texts.append(node.text)
            }
            node.children.forEach(collect)
        }
        collect(try #require(expanded.root))
        let regions = try #require(expanded.root).children.filter { $0.kind == "region" && !$0.children.isEmpty }
        #expect(regions.count >= 3)
        #expect(!texts.isEmpty)
        for line in texts { #expect(text.contains(line), "\(line) is missing from\n\(text)") }
    }

    @Test func screens() throws {
        let r = renderer()
        let screen = Samples.screen(now: t0)
        let views = ["pizza": Samples.delivery(now: t0)]
        try check("home-screen.svg", SVGWriter.document(r.homeScreen(screen)))
        try check("home-screen.txt", TextWriter.text(r.homeScreen(screen)))
        try check("lock-screen.svg", SVGWriter.document(renderer(dark: true).lockScreen(screen, views: views)))
        try check("dynamic-island.svg", SVGWriter.document(r.dynamicIsland(screen, views: views)))
    }
}
