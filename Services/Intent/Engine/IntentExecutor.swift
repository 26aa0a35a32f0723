#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DequeModule
package import GlimpseVocabulary

/// The intent engine: each app's intent catalog, the execution of widget and Live Activity
/// taps, and the App Group store the declarative actions write. No I/O: methods return `[IntentEffect]`
/// and the service performs them (answer the tapper, call a handler, reload a widget).
///
/// Invariants:
/// - A tap's idempotency key runs at most once: a replay returns the first result and
///   runs nothing. Results are kept for `idempotencyWindow` of clock time, then forgotten.
/// - Taps on one target (a placement, a Live Activity) run in arrival order, one at a
///   time: while a handler call is out, later taps on that target wait.
/// - A tap is refused, and nothing runs, on an unknown placement or another app's, on
///   `accessoryInline`, while the device is locked, from a widget kind (or a Live
///   Activity's attributes type) that does not offer the intent, or with a parameter
///   missing. Kind and family are the executor's record of the placement, never the
///   tapper's claim.
/// - Every widget tap that runs `perform()` — succeeding or failing — yields exactly one
///   `.reloadPlacement` of the tapped placement; a refused tap yields none, and so does a
///   Live Activity tap (an activity has no timeline).
/// - A declarative action is atomic on its App Group; a handler call that is not answered
///   within `handlerTimeout` has failed, and its late answer is ignored.
package struct IntentExecutor: Engine {
    package let clock: any WallClock
    package let settings: IntentSettings
    /// The App Group store. Apps and providers read and write it directly too.
    package var store: AppGroupStore
    package internal(set) var deviceLocked = false

    struct App: Codable {
        var groups: Set<GroupID>
        var intents: [String: IntentDefinition]
    }

    /// A validated tap waiting for, or holding, its placement's turn.
    struct Job: Codable {
        var tap: WidgetTap
        var definition: IntentDefinition
        /// The tap's parameters with defaults filled in.
        var parameters: [String: TypedValue]
        var key: IdempotencyLedger.Key { .init(app: tap.app, key: tap.idempotencyKey) }
    }

    struct Call: Codable {
        var job: Job
    }

    /// When a handler call times out.
    struct Deadline: Codable {
        var at: Double
        var call: CallID
    }

    var apps: [AppID: App] = [:]
    /// The device's placements, as glimpse-timeline made them: what a tap is checked against.
    var placements: [PlacementID: PlacedWidget] = [:]
    var ledger = IdempotencyLedger()
    /// Taps waiting behind a running handler call, per target.
    var waiting: [TapTarget: Deque<Job>] = [:]
    /// The handler call out for a target, if any.
    var busy: [TapTarget: CallID] = [:]
    var calls: [CallID: Call] = [:]
    /// Handler deadlines in call order (= deadline order, the timeout being fixed).
    var deadlines = Deque<Deadline>()
    var callCounter: UInt64 = 0
    var announcedWake: Double = .nan

    package init(clock: any WallClock, settings: IntentSettings = .defaults) {
        self.clock = clock
        self.settings = settings
        store = AppGroupStore(changeLogLimit: settings.changeLogLimit)
    }

    var now: Double { clock.now.timeIntervalSinceReferenceDate }

    /// Taps whose results are still kept for replays.
    package var idempotencyRecordCount: Int { ledger.recordCount }

    /// Installs an app's App Groups and intents. Refused if an intent is declared twice,
    /// has an empty action, writes a group the app is not in, or sets a key from a
    /// parameter it does not have.
    package mutating func install(
        app: AppID, groups: Set<GroupID>, intents: [IntentDefinition]
    ) throws(IntentCatalogError) {
        guard apps[app] == nil else { throw .appAlreadyInstalled(app) }
        var catalog: [String: IntentDefinition] = [:]
        for intent in intents {
            guard catalog[intent.type] == nil else { throw .duplicateIntent(intent.type) }
            for parameter in intent.parameters {
                if let value = parameter.defaultValue, value.type != parameter.type {
                    throw .defaultValueTypeMismatch(intent: intent.type, parameter: parameter.name)
                }
            }
            if case .store(let group, let operations) = intent.action {
                guard !operations.isEmpty else { throw .emptyAction(intent: intent.type) }
                guard groups.contains(group) else { throw .groupNotInApp(intent: intent.type, group: group) }
                for case .set(_, .parameter(let name)) in operations
                where !intent.parameters.contains(where: { $0.name == name }) {
                    throw .unknownParameterReference(intent: intent.type, parameter: name)
                }
            }
            catalog[intent.type] = intent
        }
        apps[app] = App(groups: groups, intents: catalog)
    }

    /// Removes an app's catalog and its placements. Its App Group data stays (other apps
    /// may share the group).
    package mutating func uninstall(app: AppID) {
        apps[app] = nil
        placements = placements.filter { $0.value.app != app }
    }

    /// A widget was placed (or re-placed in another family); taps on it are checked
    /// against this record.
    package mutating func placementAdded(_ id: PlacementID, _ widget: PlacedWidget) { placements[id] = widget }

    /// A widget was removed; taps on it are refused.
    package mutating func placementRemoved(_ id: PlacementID) { placements[id] = nil }

    package func placement(_ id: PlacementID) -> PlacedWidget? { placements[id] }

    /// The device locked or unlocked; taps are refused while it is locked.
    package mutating func setDeviceLocked(_ locked: Bool) { deviceLocked = locked }
}
