@testable import DemoApps
import GlimpseKit
import GlimpseMessages

/// The demo device's screens as `Demos/device.json` sets them up — Pixar small and medium,
/// MoviePlanner small and RTL Air medium on the Home Screen; Daily Steps inline and
/// rectangular and RTL Air rectangular on the Lock Screen; the pizza on the Lock Screen
/// and in the Dynamic Island — with the seed samples' entries.
enum SeedScreen {
    static let pizzaID = "pizza"

    static func widget(
        _ id: UInt64, _ bundle: String, _ family: GlimpseWidgetV1.WidgetFamily, _ entry: GlimpseWidgetV1.TimelineEntry
    ) -> GlimpseGatewayV1.Widget {
        var widget = GlimpseGatewayV1.Widget()
        widget.placementId = id
        widget.bundleId = bundle
        widget.family = family
        widget.entry = entry
        return widget
    }

    static func screen(island mode: GlimpseGatewayV1.DynamicIsland.Mode = .compact) -> GlimpseGatewayV1.Screen {
        typealias B = SeedSamples.Bundle
        var screen = GlimpseGatewayV1.Screen()
        screen.device = "iPhone393x852"
        screen.now = .init(date: SeedSamples.now)
        screen.homePages = [
            .init(slots: [
                .init(widgets: [widget(1, B.pixar, .systemSmall, SeedSamples.pixar(.systemSmall))]),
                .init(widgets: [widget(2, B.moviePlanner, .systemSmall, SeedSamples.moviePlanner())]),
                .init(widgets: [widget(3, B.pixar, .systemMedium, SeedSamples.pixar(.systemMedium))]),
                .init(widgets: [
                    widget(4, B.rtlAir, .systemMedium, SeedSamples.rtlAir(FlightProvider.mediumKind, .notCheckedIn))
                ]),
            ])
        ]
        var lock = GlimpseGatewayV1.Screen.LockScreen()
        lock.widgets = [
            widget(10, B.steps, .accessoryInline, SeedSamples.steps(.accessoryInline)),
            widget(11, B.steps, .accessoryRectangular, SeedSamples.steps(.accessoryRectangular)),
            widget(
                12, B.rtlAir, .accessoryRectangular, SeedSamples.rtlAir(FlightProvider.lockScreenKind, .notCheckedIn)),
        ]
        var item = GlimpseGatewayV1.ActivityView()
        item.activity = GlimpseActivityV1.Activity(activityId: pizzaID, bundleId: B.pizza)
        lock.activities = [item]
        screen.lockScreen = lock
        screen.dynamicIsland = GlimpseGatewayV1.DynamicIsland(mode: mode, activityId: pizzaID)
        return screen
    }

    static var views: [String: GlimpseWidgetV1.ActivityViews] { [pizzaID: SeedSamples.pizza()] }
}
