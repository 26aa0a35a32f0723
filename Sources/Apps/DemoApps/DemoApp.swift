package import RPCCore
package import GlimpseKit
package import GlimpseMessages
import GlimpseRPC

/// The five seed apps, each one process serving what its widget extension implements:
/// WidgetProvider, IntentHandler where an intent is the app's own code, and
/// ActivityConfiguration for its Live Activities. Manifests are `Demos/<app>/app.json`.
package enum DemoApp: String, CaseIterable, Sendable {
    case pixar, movieplanner, steps, rtlair, pizza

    /// Where the app listens unless told otherwise (its manifest's `default_endpoint`).
    package var defaultPort: Int {
        switch self {
        case .pixar: 7710
        case .movieplanner: 7711
        case .steps: 7712
        case .rtlair: 7713
        case .pizza: 7714
        }
    }

    package var bundleID: String {
        switch self {
        case .pixar: "com.yourcompany.pixartracker"
        case .movieplanner: "com.swiftcompiled.movieplanner"
        case .steps: "com.soarias.dailysteps"
        case .rtlair: "net.insoc.rtlair"
        case .pizza: "com.you.pizza"
        }
    }

    /// One line for `glimpse-demo list`.
    package var summary: String {
        switch self {
        case .pixar:
            "Pixar Film Tracker (seed 000): PixarFilmWidget, MarkFilmWatchedIntent, FilmPlaybackAttributes Live Activity with TogglePlaybackIntent"
        case .movieplanner: "MoviePlanner (seed 001): MoviePlannerwidget cycling three movies"
        case .steps: "Daily Steps (seed 003): LockScreenWidget in the accessory families, every 15 minutes"
        case .rtlair:
            "Ride the Lightning Air (seed 004): MediumWidget and LockScreenWidget, Check In → Gate M72 → cleared"
        case .pizza: "Pizza Delivery (seed 002): PizzaDeliveryAttributes Live Activity with its Dynamic Island"
        }
    }

    /// What the process serves; `gateway` answers the App Group reads (RTL Air) and the
    /// Live Activity updates of an intent (Pixar's play/pause).
    package func services(gateway: GatewayLink?) -> [any RPCService] {
        switch self {
        case .pixar:
            // The play/pause intent updates its activity through GlimpseKit's ActivityKit.
            gateway?.makeCurrent()
            let store = FilmStore()
            return [WidgetProviderService(source: PixarWidget(store: store)), PixarIntentHandler(store: store)]
                + GlimpseApp.services(of: FilmPlaybackLiveActivity())
        case .movieplanner:
            return [WidgetProviderService(source: MoviePlannerWidget())]
        case .steps:
            return [WidgetProviderService(source: LockScreenWidget())]
        case .rtlair:
            let defaults: any SharedDefaults = gateway.map { GatewaySharedDefaults(gateway: $0) } ?? NoSharedDefaults()
            return [WidgetProviderService(source: FlightProvider(store: FlightStore(defaults: defaults)))]
        case .pizza:
            return GlimpseApp.services(of: PizzaDeliveryActivityWidget())
        }
    }

    /// The full names of `services(gateway:)`, for health and reflection.
    package var serviceNames: [String] {
        switch self {
        case .pixar:
            [
                GlimpseAppV1.WidgetProvider.name, GlimpseAppV1.IntentHandler.name,
                GlimpseAppV1.ActivityConfiguration.name,
            ]
        case .movieplanner, .steps, .rtlair: [GlimpseAppV1.WidgetProvider.name]
        case .pizza: [GlimpseAppV1.ActivityConfiguration.name]
        }
    }

    /// Whether the app reads anything through the gateway.
    package var usesGateway: Bool { self == .rtlair || self == .pixar }
}

/// No App Group reachable: every read is "no value".
struct NoSharedDefaults: SharedDefaults {
    func value(forKey key: String, inGroup group: String) async -> GlimpseWidgetV1.ParameterValue? { nil }
}

extension DemoApp {
    /// The proto descriptors the apps' services come from, for reflection.
    package static var descriptors: [ProtoFileDescriptor] { GlimpseMessagesDescriptors.files }
}
