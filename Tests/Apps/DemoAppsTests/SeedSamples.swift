@testable import DemoApps
import GlimpseKit
import Foundation
import GlimpseMessages
import Rendering

/// The seed views at one fixed instant, from the apps' own view functions and sample data:
/// what the golden files and the frame assertions render. Nothing reads the wall clock.
enum SeedSamples {
    static let now = start

    enum Bundle {
        static let pixar = "com.yourcompany.pixartracker"
        static let moviePlanner = "com.swiftcompiled.movieplanner"
        static let steps = "com.soarias.dailysteps"
        static let rtlAir = "net.insoc.rtlair"
        static let pizza = "com.you.pizza"
    }

    // MARK: Widgets

    /// Pixar: Coco, 42 % watched (the article's sample).
    static func pixar(_ family: GlimpseWidgetV1.WidgetFamily) -> GlimpseWidgetV1.TimelineEntry {
        FilmWidgetEntryView.entry(.placeholder(now), family: family)
    }

    /// MoviePlanner: the longest title of the list, so wrapping shows.
    static func moviePlanner() -> GlimpseWidgetV1.TimelineEntry {
        MoviePlannerWidgetEntryView.entry(date: now, movie: MoviePlannerWidget.movies[2])
    }

    /// Daily Steps: the article's 8,420 steps.
    static func steps(_ family: GlimpseWidgetV1.WidgetFamily) -> GlimpseWidgetV1.TimelineEntry {
        LockWidgetView.entry(LockScreenWidget.sample(now), family: family, goal: DailySteps().goal)
    }

    /// RTL Air: the provider's entry for a kind, in a status.
    static func rtlAir(_ kind: String, _ status: FlightStatus) -> GlimpseWidgetV1.TimelineEntry {
        let provider = FlightProvider(store: FlightStore(defaults: MemoryDefaults()))
        return provider.entry(kind, FlightProvider.FlightEntry(date: now, flight: .mock(on: now), status: status))
    }

    // MARK: Live Activities

    /// Two pizzas, $24.99, Tim on the way, due in 30 minutes (the demo device's activity).
    static func pizza(status: PizzaDeliveryAttributes.DeliveryStatus = .onTheWay) -> GlimpseWidgetV1.ActivityViews {
        let state = PizzaDeliveryAttributes.ContentState(
            driverName: "Tim", estimatedDeliveryTime: now...now.adding(minutes: 30), status: status)
        var request = GlimpseAppV1.ActivityViewsRequest(activityId: "pizza", attributesType: "PizzaDeliveryAttributes")
        request.attributesJson = String(
            decoding: try! JSONEncoder().encode(PizzaDeliveryAttributes(numberOfPizzas: 2, totalAmount: "$24.99")),
            as: UTF8.self)
        request.stateJson = String(decoding: try! JSONEncoder().encode(state), as: UTF8.self)
        request.now = .init(date: now)
        return try! PizzaDeliveryActivityWidget().views(for: request)
    }

    /// Coco playing, 42 minutes in.
    static func filmPlayback() -> GlimpseWidgetV1.ActivityViews {
        let attributes = FilmPlaybackAttributes(filmTitle: "Coco", posterImageName: "coco-poster", totalRuntime: 105)
        let state = FilmPlaybackAttributes.ContentState(
            currentScene: "The Land of the Dead", elapsedMinutes: 42, isPlaying: true, chapterProgress: 0.4)
        var request = GlimpseAppV1.ActivityViewsRequest(activityId: "film", attributesType: "FilmPlaybackAttributes")
        request.attributesJson = String(decoding: try! JSONEncoder().encode(attributes), as: UTF8.self)
        request.stateJson = String(decoding: try! JSONEncoder().encode(state), as: UTF8.self)
        request.now = .init(date: now)
        return try! FilmPlaybackLiveActivity().views(for: request)
    }

    // MARK: Rendering

    static func renderer(dark: Bool = false) -> Renderer {
        Renderer(environment: RenderEnvironment(now: now, colorScheme: dark ? .dark : .light, assets: DemoAssets.all))
    }

    static func widget(
        _ entry: GlimpseWidgetV1.TimelineEntry, _ family: GlimpseWidgetV1.WidgetFamily, bundle: String,
        dark: Bool = false, mode: GlimpseWidgetV1.WidgetRenderingMode = .unspecified
    ) -> GlimpseWidgetV1.Layout {
        renderer(dark: dark).view(
            entry.view ?? .init(), family: family, bundleID: bundle, widgetURL: entry.widgetUrl, mode: mode)
    }

    static func activity(
        _ views: GlimpseWidgetV1.ActivityViews, _ presentation: ActivityPresentationKind, bundle: String,
        dark: Bool = false
    )
        -> GlimpseWidgetV1.Layout
    {
        renderer(dark: dark).activity(
            views, presentation: presentation,
            activity: GlimpseActivityV1.Activity(activityId: "seed", bundleId: bundle))
    }
}
