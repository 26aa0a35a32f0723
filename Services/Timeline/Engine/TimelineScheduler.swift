#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseVocabulary

/// The timeline engine: widget kinds, placements, their timelines, and when each
/// placement's provider is called. No I/O: every method returns `[TimelineEffect]` and
/// the service performs them (call a provider, stream an entry change, arm a timer).
///
/// Invariants:
/// - Every time rule reads `clock.now`. Work falls due at a deadline; `fireDue()` does
///   everything due by now in deadline order, so a `VirtualClock` driven through
///   `nextDeadline()` replays a day in order.
/// - The entry shown at t is the latest entry dated ≤ t; before the first, the placeholder.
///   Timelines are stored sorted and within the entry-count and byte caps.
/// - At most one provider call per placement is in flight. Requests made before a call
///   is dispatched coalesce into it; requests made during a call cause one more call after it.
/// - A charged reload happens only with budget left in the rolling window and at least
///   the minimum spacing after the previous reload; otherwise it is deferred to the
///   first instant both allow — never dropped. Free reloads (placement, intent, locale,
///   accessibility, app active) skip both and are not charged.
/// - A failed or timed-out call keeps the last timeline and is retried with backoff;
///   retries are never charged.
/// - Finding the next due work never scans placements: each placement has one live
///   wake-up in a calendar queue (O(1) to schedule, O(log b) to take from a bucket of b),
///   and provider-call timeouts wait in a FIFO (they fall due in dispatch order).
package struct TimelineScheduler: Engine {
    package let clock: any WallClock
    package let settings: TimelineSettings
    package internal(set) var lowPowerMode = false

    struct AppState: Codable {
        var id: AppID
        var kinds: [UInt32] = []
        var installed = true
    }

    struct KindRecord: Codable {
        var app: UInt32
        var widget: WidgetKind
        var members: [UInt32] = []
    }

    struct KindKey: Hashable, Codable {
        var app: AppID
        var kind: String
    }

    var apps: [AppState] = []
    /// By app slot: foreground or with an active audio/navigation session (reloads are free).
    var appActive: [Bool] = []
    var appIndex: [AppID: UInt32] = [:]
    var kinds: [KindRecord] = []
    /// Kind slots an uninstall gave back, reused by the next install.
    var freeKindSlots: [UInt32] = []
    var kindIndex: [KindKey: UInt32] = [:]
    /// By placement slot: the plain-data hot state, and the parts that own memory.
    var records: ContiguousArray<PlacementRecord> = []
    /// `ManagedBuffer` is never `Sendable`; these are immutable once made, so sharing is safe.
    nonisolated(unsafe) var timelines: ContiguousArray<StoredTimeline?> = []
    /// The configurations that are not empty, by slot (most placements have none).
    var configurations: [UInt32: [String: ConfigurationValue]] = [:]
    /// The app's placeholder of each placement that has no timeline yet and got one.
    var placeholders: [PlacementID: TimelineEntry] = [:]
    var budgets: ContiguousArray<ReloadBudget> = []
    var freeSlots: [UInt32] = []
    var slotOf: [PlacementID: UInt32] = [:]
    var queue = WakeQueue()
    var timeouts = TimeoutQueue()
    var fetchCounter: UInt32 = 0
    /// The wake-up last reported through `.nextWakeUp`; NaN before the first report.
    var announcedWake: Seconds = .nan
    var handledWakeUps: UInt64 = 0
    /// Sink for `warm(dueBy:)`'s reads.
    var warmth: UInt64 = 0

    /// Point sizes of each family on the configured screen, by `WidgetFamily` position.
    let familySizes: [DisplaySize]

    package init(clock: any WallClock, settings: TimelineSettings = .defaults) {
        precondition(settings.providerTimeout > 0, "providerTimeout must be positive")
        precondition(settings.retryBackoffBase > 0, "retryBackoffBase must be positive")
        self.clock = clock
        self.settings = settings
        familySizes = WidgetFamily.allCases.map {
            settings.deviceScreen.displaySize(of: $0) ?? DisplaySize(width: 0, height: 0)
        }
    }

    var now: Seconds { clock.now.timeIntervalSinceReferenceDate }

    var rules: ReloadRules { ReloadRules(settings, lowPowerMode: lowPowerMode) }

    func isAppActive(_ record: PlacementRecord) -> Bool { appActive[Int(record.app)] }

    // MARK: Queries

    /// Live placements.
    package var placementCount: Int { slotOf.count }

    package func placement(_ id: PlacementID) -> Placement? {
        guard let slot = slotOf[id] else { return nil }
        let record = records[Int(slot)]
        return Placement(
            id: id, app: apps[Int(record.app)].id, kind: kinds[Int(record.kind)].widget.kind, family: record.family,
            configuration: configurations[slot] ?? [:], screen: record.screen)
    }

    /// An app's live placements, in id order.
    package func placements(of app: AppID) -> [PlacementID] {
        guard let index = appIndex[app] else { return [] }
        return slotOf.filter { records[Int($0.value)].app == index }.keys.sorted()
    }

    /// Every live placement, in id order.
    package var placementIDs: [PlacementID] { slotOf.keys.sorted() }

    /// The kinds an installed app declares.
    package func kinds(of app: AppID) -> [WidgetKind] {
        guard let index = appIndex[app], apps[Int(index)].installed else { return [] }
        return apps[Int(index)].kinds.map { kinds[Int($0)].widget }
    }

    /// The entry shown now (latest dated ≤ now); nil for the placeholder or an unknown id.
    package func currentEntry(of id: PlacementID) -> TimelineEntry? {
        guard let slot = slotOf[id], let timeline = timelines[Int(slot)],
            let index = timeline.index(at: now)
        else { return nil }
        return timeline.entry(at: index)
    }

    /// The app's placeholder the placement shows (redacted) while it has no timeline.
    package func placeholder(of id: PlacementID) -> TimelineEntry? { placeholders[id] }

    /// The placement's current timeline, sorted; nil before its first answer.
    package func timeline(of id: PlacementID) -> Timeline? {
        guard let slot = slotOf[id] else { return nil }
        return timelines[Int(slot)]?.timeline
    }

    /// Charged reloads inside the rolling window ending now.
    package func reloadsUsed(by id: PlacementID) -> Int? {
        guard let slot = slotOf[id] else { return nil }
        return budgets[Int(slot)].used(at: now, window: settings.budgetWindow)
    }

    /// The provider context of a placement.
    package func context(of id: PlacementID) -> TimelineContext? {
        guard let slot = slotOf[id] else { return nil }
        return context(of: slot)
    }

    func context(of slot: UInt32) -> TimelineContext {
        let family = records[Int(slot)].family
        return TimelineContext(
            family: family,
            displaySize: familySizes[family.position],
            isPreview: false,
            // Most devices configure no placement: no hashing per provider call then.
            configuration: configurations.isEmpty ? [:] : configurations[slot] ?? [:])
    }

    /// The entry a placement last reported shown; nil is the placeholder.
    func shownEntry(_ slot: UInt32) -> ShownEntry? {
        let index = Int(records[Int(slot)].shownIndex)
        guard index >= 0, let timeline = timelines[Int(slot)] else { return nil }
        return ShownEntry(timeline, index)
    }
}
