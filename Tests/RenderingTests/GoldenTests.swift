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
