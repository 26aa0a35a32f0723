#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseClock
@testable import ActivityEngine

/// A virtual clock, an engine on it with deterministic ids, and the seed apps installed.
struct Harness {
    let clock: VirtualClock
    var engine: ActivityEngine

    static let pizzaApp: AppID = "com.example.pizza"
    static let filmApp: AppID = "com.example.pixar"
    static let pizzaType = "PizzaDeliveryAttributes"
    static let filmType = "FilmPlaybackAttributes"

    init(config: ActivityEngineConfig = .defaults, device: DeviceSettings = DeviceSettings()) {
        clock = VirtualClock()
        engine = ActivityEngine(clock: clock, config: config, device: device, identifiers: SequentialIdentifiers())
        engine.install(Self.pizzaApp, InstalledApp(attributeTypes: [Self.pizzaType]))
        engine.install(Self.filmApp, InstalledApp(attributeTypes: [Self.filmType]))
    }

    var now: Date { clock.now }

    mutating func advance(by seconds: TimeInterval) throws {
        try engine.advance(clock, by: seconds)
    }

    /// Starts a pizza activity (or fails the test through the returned error).
    mutating func requestPizza(
        driver: String = "Tim", relevance: Double = 0, staleDate: Date? = nil,
        pushType: PushType? = nil, app: AppID = Harness.pizzaApp
    ) throws -> ActivityID {
        try engine.request(
            app: app, attributes: pizzaAttributes(), content: content(["driverName": .string(driver)], staleDate: staleDate, relevance: relevance),
            pushType: pushType
        ).get()
    }

    mutating func requestFilm(relevance: Double = 0, pushType: PushType? = nil) throws -> ActivityID {
        try engine.request(
            app: Harness.filmApp,
            attributes: ActivityAttributesPayload(typeName: Harness.filmType, value: try JSONObjectBytes(["filmTitle": "Coco"])),
            content: content(["currentScene": "Opening Credits"], relevance: relevance), pushType: pushType
        ).get()
    }
}

func pizzaAttributes(pizzas: Int = 1) -> ActivityAttributesPayload {
    ActivityAttributesPayload(typeName: Harness.pizzaType,
                              value: try! JSONObjectBytes(["numberOfPizzas": .number(pizzas), "totalAmount": "$99"]))
}

func content(_ state: JSONValue, staleDate: Date? = nil, relevance: Double = 0) -> ActivityContent {
    ActivityContent(state: try! JSONObjectBytes(state), staleDate: staleDate, relevanceScore: relevance)
}

/// A content state whose compact encoding is exactly `size` bytes: `{"d":"xxx…"}`.
func state(ofEncodedSize size: Int) -> JSONObjectBytes {
    precondition(size >= 8)
    return try! JSONObjectBytes(["d": .string(String(repeating: "x", count: size - 8))])
}

/// Bytes of a JSON text.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

extension ActivityEngine {
    /// The state of an activity, or `.dismissed` once it is gone.
    func state(of id: ActivityID) -> ActivityState { activity(id)?.state ?? .dismissed }
}
