#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseVocabulary
@testable import ActivityEngine
import EngineTesting
import GlimpseJSON

/// A virtual clock, an engine on it with deterministic ids, and the seed apps installed.
struct Harness {
    let clock: VirtualClock
    var engine: RecordingHost

    static let pizzaApp: AppID = "com.example.pizza"
    static let filmApp: AppID = "com.example.pixar"
    static let pizzaType = "PizzaDeliveryAttributes"
    static let filmType = "FilmPlaybackAttributes"

    init(config: ActivitySettings = .defaults, device: DeviceSettings = DeviceSettings()) {
        clock = VirtualClock()
        engine = RecordingHost(
            ActivityManager(clock: clock, config: config, device: device, identifiers: SequentialIdentifiers()))
        engine.install(Self.pizzaApp, InstalledApp(attributeTypes: [Self.pizzaType]))
        engine.install(Self.filmApp, InstalledApp(attributeTypes: [Self.filmType]))
    }

    var now: Date { clock.now }

    mutating func advance(by seconds: TimeInterval) throws {
        try engine.advance(clock, by: seconds)
    }

    mutating func advance(to instant: Date) throws {
        try engine.advance(clock, to: instant)
    }

    /// Starts a pizza activity (or fails the test through the returned error).
    mutating func requestPizza(
        driver: String = "Tim", relevance: Double = 0, staleDate: Date? = nil,
        pushType: PushType? = nil, app: AppID = Harness.pizzaApp
    ) throws -> ActivityID {
        try engine.request(
            app: app, attributes: pizzaAttributes(),
            content: content(["driverName": .string(driver)], staleDate: staleDate, relevance: relevance),
            pushType: pushType
        ).get()
    }

    mutating func requestFilm(relevance: Double = 0, pushType: PushType? = nil) throws -> ActivityID {
        try engine.request(
            app: Harness.filmApp,
            attributes: ActivityAttributesPayload(
                typeName: Harness.filmType, value: try JSONObjectBytes(["filmTitle": "Coco"])),
            content: content(["currentScene": "Opening Credits"], relevance: relevance), pushType: pushType
        ).get()
    }
}

func pizzaAttributes(pizzas: Int = 1) -> ActivityAttributesPayload {
    ActivityAttributesPayload(
        typeName: Harness.pizzaType,
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

extension ActivityManager {
    /// The state of an activity, or `.dismissed` once it is gone.
    func state(of id: ActivityID) -> ActivityState { activity(id)?.state ?? .dismissed }
}

/// The test's stand-in for the engine host: calls the engine, keeps every event a call or
/// a firing returns, in order, and answers with the call's answer. `drainEvents()` hands
/// the kept events to the test.
@dynamicMemberLookup
struct RecordingHost {
    var manager: ActivityManager
    private(set) var events: [ActivityEvent] = []

    init(_ manager: ActivityManager) { self.manager = manager }

    subscript<T>(dynamicMember path: KeyPath<ActivityManager, T>) -> T { manager[keyPath: path] }

    mutating func drainEvents() -> [ActivityEvent] {
        defer { events.removeAll() }
        return events
    }

    private mutating func keep<A>(_ step: Step<A, ActivityEvent>) -> A {
        events += step.effects
        return step.answer
    }

    mutating func advance(_ clock: VirtualClock, by seconds: TimeInterval) throws {
        events += try manager.advance(clock, by: seconds)
    }

    mutating func advance(_ clock: VirtualClock, to instant: Date) throws {
        events += try manager.advance(clock, to: instant)
    }

    mutating func fireDue() { events += manager.fireDue() }

    func nextDeadline() -> Date? { manager.nextDeadline() }
    func activity(_ id: ActivityID) -> ActivitySnapshot? { manager.activity(id) }
    func activities(of app: AppID) -> [ActivitySnapshot] { manager.activities(of: app) }
    func activityID(forUpdateToken token: PushToken) -> ActivityID? { manager.activityID(forUpdateToken: token) }
    func authorizationInfo(for app: AppID) -> ActivityAuthorizationInfo { manager.authorizationInfo(for: app) }
    func hourlyBudget(for app: AppID) -> Int { manager.hourlyBudget(for: app) }
    func presentation(longPressed: ActivityID? = nil) -> PresentationLayout {
        manager.presentation(longPressed: longPressed)
    }
    func state(of id: ActivityID) -> ActivityState { manager.state(of: id) }

    mutating func install(_ app: AppID, _ declaration: InstalledApp) { manager.install(app, declaration) }
    mutating func setActivitiesEnabled(_ enabled: Bool, for app: AppID) {
        manager.setActivitiesEnabled(enabled, for: app)
    }
    mutating func setFrequentUpdatesEnabled(_ enabled: Bool, for app: AppID) {
        manager.setFrequentUpdatesEnabled(enabled, for: app)
    }

    mutating func request(
        app: AppID, attributes: ActivityAttributesPayload, content: ActivityContent, pushType: PushType? = nil,
        origin: RequestOrigin = .app(isForeground: true), startDate: Date? = nil
    ) -> Result<ActivityID, ActivityAuthorizationError> {
        keep(
            manager.request(
                app: app, attributes: attributes, content: content, pushType: pushType, origin: origin,
                startDate: startDate))
    }

    mutating func update(
        _ id: ActivityID, content: ActivityContent, alert: AlertConfiguration? = nil, timestamp: Date? = nil
    ) -> UpdateResult {
        keep(manager.update(id, content: content, alert: alert, timestamp: timestamp))
    }

    mutating func end(
        _ id: ActivityID, content: ActivityContent? = nil, dismissalPolicy: DismissalPolicy = .default,
        timestamp: Date? = nil
    ) -> EndResult {
        keep(manager.end(id, content: content, dismissalPolicy: dismissalPolicy, timestamp: timestamp))
    }

    @discardableResult
    mutating func dismissByUser(_ id: ActivityID) -> Bool { keep(manager.dismissByUser(id)) }

    @discardableResult
    mutating func rotatePushToken(_ id: ActivityID) -> PushToken? { keep(manager.rotatePushToken(id)) }

    mutating func pushToStartToken(app: AppID, attributesType: String) -> Result<PushToken, ActivityAuthorizationError>
    {
        keep(manager.pushToStartToken(app: app, attributesType: attributesType))
    }

    mutating func rotatePushToStartToken(
        app: AppID, attributesType: String
    ) -> Result<PushToken, ActivityAuthorizationError> {
        keep(manager.rotatePushToStartToken(app: app, attributesType: attributesType))
    }

    mutating func receivePush(headers: LiveActivityPushHeaders, deviceToken: PushToken, body: [UInt8]) -> PushOutcome {
        keep(manager.receivePush(headers: headers, deviceToken: deviceToken, body: body))
    }

    mutating func receivePush(
        headers: LiveActivityPushHeaders, deviceToken: PushToken, _ push: LiveActivityPush
    ) -> PushOutcome {
        keep(manager.receivePush(headers: headers, deviceToken: deviceToken, push))
    }

    mutating func receiveBroadcast(
        headers: LiveActivityPushHeaders, body: [UInt8]
    ) -> Result<[ActivityID: PushOutcome], PushRejection> {
        keep(manager.receiveBroadcast(headers: headers, body: body))
    }
}
