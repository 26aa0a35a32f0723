@testable import DemoApps
import GlimpseKit
import Foundation
import GlimpseMessages
import GoldenFiles
import Rendering
import Testing

/// Goldens of every seed view as Glimpse draws it: the SVG (images embedded, so
/// `Demos/screens/make.sh` turns them into the README's pictures) and the Layout's proto3
/// JSON, per app × family / presentation, light; plus a dark and a vibrant case and the
/// demo device's three screens. `GLIMPSE_UPDATE_GOLDEN=1 swift test …` rewrites them.
@Suite struct SeedGoldenTests {
    let golden = GoldenFolder(besides: #filePath)

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var render: @Sendable () -> GlimpseWidgetV1.Layout
        var testDescription: String { name }
    }

    typealias B = SeedSamples.Bundle

    static let widgets: [Case] = [
        Case(name: "pixar-small") {
            SeedSamples.widget(SeedSamples.pixar(.systemSmall), .systemSmall, bundle: B.pixar)
        },
        Case(name: "pixar-medium") {
            SeedSamples.widget(SeedSamples.pixar(.systemMedium), .systemMedium, bundle: B.pixar)
        },
        Case(name: "pixar-large") {
            SeedSamples.widget(SeedSamples.pixar(.systemLarge), .systemLarge, bundle: B.pixar)
        },
        Case(name: "pixar-circular") {
            SeedSamples.widget(SeedSamples.pixar(.accessoryCircular), .accessoryCircular, bundle: B.pixar)
        },
        Case(name: "pixar-rectangular") {
            SeedSamples.widget(SeedSamples.pixar(.accessoryRectangular), .accessoryRectangular, bundle: B.pixar)
        },
        Case(name: "pixar-medium-dark") {
            SeedSamples.widget(SeedSamples.pixar(.systemMedium), .systemMedium, bundle: B.pixar, dark: true)
        },
        Case(name: "movieplanner-small") {
            SeedSamples.widget(SeedSamples.moviePlanner(), .systemSmall, bundle: B.moviePlanner)
        },
        Case(name: "movieplanner-medium") {
            SeedSamples.widget(SeedSamples.moviePlanner(), .systemMedium, bundle: B.moviePlanner)
        },
        Case(name: "movieplanner-large") {
            SeedSamples.widget(SeedSamples.moviePlanner(), .systemLarge, bundle: B.moviePlanner)
        },
        Case(name: "steps-circular") {
            SeedSamples.widget(SeedSamples.steps(.accessoryCircular), .accessoryCircular, bundle: B.steps)
        },
        Case(name: "steps-rectangular") {
            SeedSamples.widget(SeedSamples.steps(.accessoryRectangular), .accessoryRectangular, bundle: B.steps)
        },
        Case(name: "steps-inline") {
            SeedSamples.widget(SeedSamples.steps(.accessoryInline), .accessoryInline, bundle: B.steps)
        },
        Case(name: "rtlair-medium-not-checked-in") { rtlAirMedium(.notCheckedIn) },
        Case(name: "rtlair-medium-checked-in") { rtlAirMedium(.checkedIn) },
        Case(name: "rtlair-medium-gate-confirmed") { rtlAirMedium(.gateConfirmed) },
        // StandBy at night: the whole widget vibrant (desaturated, no container background).
        Case(name: "rtlair-medium-vibrant") { rtlAirMedium(.checkedIn, mode: .vibrant) },
        Case(name: "rtlair-rectangular") {
            SeedSamples.widget(
                SeedSamples.rtlAir(FlightProvider.lockScreenKind, .checkedIn), .accessoryRectangular, bundle: B.rtlAir)
        },
    ]

    static let activities: [Case] = ActivityPresentationKind.allCases.flatMap { presentation in
        [
            Case(name: "pizza-\(presentation.rawValue.lowercased())") {
                SeedSamples.activity(SeedSamples.pizza(), presentation, bundle: B.pizza)
            },
            Case(name: "film-\(presentation.rawValue.lowercased())") {
                SeedSamples.activity(SeedSamples.filmPlayback(), presentation, bundle: B.pixar)
            },
        ]
    }

    static let screens: [Case] = [
        Case(name: "device-home") { SeedSamples.renderer().homeScreen(SeedScreen.screen()) },
        Case(name: "device-lock") {
            SeedSamples.renderer(dark: true).lockScreen(SeedScreen.screen(), views: SeedScreen.views)
        },
        Case(name: "device-island-compact") {
            SeedSamples.renderer().dynamicIsland(SeedScreen.screen(), views: SeedScreen.views)
        },
        Case(name: "device-island-expanded") {
            SeedSamples.renderer().dynamicIsland(SeedScreen.screen(island: .expanded), views: SeedScreen.views)
        },
    ]

    static func rtlAirMedium(
        _ status: FlightStatus, mode: GlimpseWidgetV1.WidgetRenderingMode = .unspecified
    ) -> GlimpseWidgetV1.Layout {
        SeedSamples.widget(
            SeedSamples.rtlAir(FlightProvider.mediumKind, status), .systemMedium, bundle: B.rtlAir, mode: mode)
    }

    @Test(arguments: widgets + activities + screens)
    func golden(_ seed: Case) throws {
        let layout = seed.render()
        try check("\(seed.name).svg", SVGWriter.document(layout, assets: DemoAssets.all, embedImages: true))
        try check("\(seed.name).json", PrettyJSON.format(layout.jsonBytes()))
    }

    @Test func renderingTwiceGivesTheSameBytes() {
        for seed in Self.widgets + Self.activities + Self.screens {
            #expect(seed.render().jsonBytes() == seed.render().jsonBytes(), "\(seed.name)")
        }
    }

    func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try golden.check(name, actual, sourceLocation: sourceLocation)
    }
}
