#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseVocabulary
import DequeModule
import GlimpseJSON

/// The Live Activity rules of spec §4–6 as a value: requests, updates, ends, timers,
/// push tokens and pushes. It does no I/O; the glimpse-activity service owns one,
/// calls its methods, acts on the returned answers and carries out the returned events
/// (`Step.effects`), and drives the timers through `nextDeadline()` and `fireDue()`.
///
/// Invariants:
/// - Every public mutating method first fires the deadlines that are due on `clock`,
///   so state always agrees with the clock even if nobody ticked.
/// - `ongoing` and `ongoingByApp` equal the number of pending/active/stale records.
/// - Dismissed activities are removed, with their update token and channel entries; the
///   record is kept, as it was last, in `dismissed` for `dismissedRetention` (at most
///   `dismissedKept` of them), so a list that asks for dismissed ones still finds it.
/// - Every refusal comes back as a result naming its reason; nothing is dropped silently.
package struct ActivityManager: Engine {
    package let clock: any WallClock
    package var config: ActivitySettings
    package var device: DeviceSettings
    var identifiers: any IdentifierSource

    var apps: [AppID: InstalledApp] = [:]
    var activities: [ActivityID: ActivityRecord] = [:]
    /// The app of each of the last `removedAppsKept` activities removed: the events of a
    /// removal still name their app after the record is gone.
    var removedApps: [ActivityID: AppID] = [:]
    var removedOrder: Deque<ActivityID> = []
    static let removedAppsKept = 1_024
    /// Dismissed activities as they were last, oldest first.
    var dismissed: Deque<ActivityRecord> = []
    /// How long a dismissed activity stays listed (with `include_dismissed`).
    package static let dismissedRetention: Double = 3600
    /// How many dismissed activities stay listed at most.
    package static let dismissedKept = 256
    var updateTokens: [PushToken: ActivityID] = [:]
    var pushToStart = PushToStartRegistry()
    var channels: [ChannelID: Set<ActivityID>] = [:]
    /// The latest broadcast of each channel with message storage policy 1, for the
    /// activities that subscribe within `broadcastStorageDuration`.
    var storedBroadcasts: [ChannelID: StoredBroadcast] = [:]
    /// Priority-5 pushes held for `lowPriorityDelay`, one per activity (the newest).
    var deferredPushes: [ActivityID: LiveActivityPush] = [:]
    var ongoing = 0
    var ongoingByApp: [AppID: Int] = [:]
    var deadlines = DeadlineQueue()
    var compactionThreshold = 1024
    var nextStartOrder: UInt64 = 0

    /// Events of the call in progress, oldest first; every public call returns them.
    var pending: [ActivityEvent] = []

    package init(
        clock: any WallClock,
        config: ActivitySettings = .defaults,
        device: DeviceSettings = DeviceSettings(),
        identifiers: any IdentifierSource = RandomIdentifiers()
    ) {
        self.clock = clock
        self.config = config
        self.device = device
        self.identifiers = identifiers
    }

    // MARK: Apps

    /// Registers (or replaces) an app's Live Activity declaration.
    package mutating func install(_ app: AppID, _ declaration: InstalledApp) {
        apps[app] = declaration
    }

    package func installedApp(_ app: AppID) -> InstalledApp? { apps[app] }

    /// The user's per-app Live Activities switch.
    package mutating func setActivitiesEnabled(_ enabled: Bool, for app: AppID) {
        apps[app]?.activitiesEnabled = enabled
    }

    /// The user's per-app "More Frequent Updates" switch.
    package mutating func setFrequentUpdatesEnabled(_ enabled: Bool, for app: AppID) {
        apps[app]?.frequentUpdatesEnabled = enabled
    }

    package func authorizationInfo(for app: AppID) -> ActivityAuthorizationInfo {
        let declared = apps[app]
        return ActivityAuthorizationInfo(
            areActivitiesEnabled: device.supportsLiveActivities && device.liveActivitiesEnabled
                && (declared?.activitiesEnabled ?? false),
            frequentPushesEnabled: declared?.frequentPushesEnabled ?? false)
    }

    // MARK: Queries

    package func activity(_ id: ActivityID) -> ActivitySnapshot? { activities[id]?.snapshot }

    /// The activity, or its last state if it was dismissed within `dismissedRetention`.
    package func activity(_ id: ActivityID, includingDismissed: Bool) -> ActivitySnapshot? {
        if let live = activities[id] { return live.snapshot }
        guard includingDismissed else { return nil }
        return recentlyDismissed.last(where: { $0.id == id })?.snapshot
    }

    /// The activities dismissed within `dismissedRetention`, newest first.
    package func dismissedActivities(of app: AppID? = nil) -> [ActivitySnapshot] {
        recentlyDismissed.reversed().filter { app == nil || $0.app == app }.map(\.snapshot)
    }

    private var recentlyDismissed: some BidirectionalCollection<ActivityRecord> {
        let since = clock.now.addingTimeInterval(-Self.dismissedRetention)
        return dismissed.drop(while: { ($0.dismissalDate ?? .distantPast) <= since })
    }

    /// The app an activity belongs to, also shortly after it was dismissed and removed.
    package func app(of id: ActivityID) -> AppID? { activities[id]?.app ?? removedApps[id] }

    /// Every activity not yet dismissed, in start order.
    package var allActivities: [ActivitySnapshot] {
        activities.values.map(\.snapshot).sorted { $0.startOrder < $1.startOrder }
    }

    package func activities(of app: AppID) -> [ActivitySnapshot] {
        allActivities.filter { $0.app == app }
    }

    /// How many activities exist (any state but dismissed).
    package var count: Int { activities.count }

    /// How many count toward the caps (pending, active, stale).
    package var ongoingCount: Int { ongoing }

    package func activityID(forUpdateToken token: PushToken) -> ActivityID? { updateTokens[token] }

    /// Returns and clears the events of the call in progress.
    mutating func takeEvents() -> [ActivityEvent] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    /// A call's answer with the events it caused.
    mutating func step<Answer>(_ answer: Answer) -> Step<Answer, ActivityEvent> {
        Step(answer, effects: takeEvents())
    }

    // MARK: Internal bookkeeping

    mutating func emit(_ event: ActivityEvent) { pending.append(event) }

    /// Reports a transition and keeps the cap counters true.
    mutating func record(_ transition: ActivityRecord.Transition?, of id: ActivityID, app: AppID) {
        guard let t = transition else { return }
        if t.from.countsTowardLimit && !t.to.countsTowardLimit {
            ongoing -= 1
            ongoingByApp[app, default: 1] -= 1
        }
        emit(.stateChanged(id, from: t.from, to: t.to, reason: t.reason))
    }

    /// Queues every timer of the record at `i` whose wanted instant is not yet queued.
    mutating func queueTimers(at i: Dictionary<ActivityID, ActivityRecord>.Index) {
        let id = activities.keys[i]
        for kind in TimerKind.allCases {
            let slot = activities.values[i].timers[kind]
            guard let due = slot.due else { continue }
            if let queued = slot.queued, queued <= due { continue }
            activities.values[i].timers[kind].queued = due
            deadlines.insert(id, kind, at: due)
        }
    }

    /// Removes a dismissed record and everything that points at it.
    mutating func remove(at i: Dictionary<ActivityID, ActivityRecord>.Index) {
        let record = activities.values[i]
        if let token = record.pushToken { updateTokens[token] = nil }
        deferredPushes[record.id] = nil
        if case .channel(let channel)? = record.pushType {
            channels[channel]?.remove(record.id)
            if channels[channel]?.isEmpty == true { channels[channel] = nil }
        }
        activities.remove(at: i)
        removedApps[record.id] = record.app
        removedOrder.append(record.id)
        if removedOrder.count > Self.removedAppsKept, let oldest = removedOrder.popFirst() {
            removedApps[oldest] = nil
        }
        guard record.state == .dismissed else { return }
        let since = clock.now.addingTimeInterval(-Self.dismissedRetention)
        while let oldest = dismissed.first,
            dismissed.count >= Self.dismissedKept || (oldest.dismissalDate ?? .distantPast) <= since
        {
            dismissed.removeFirst()
        }
        dismissed.append(record)
    }

    /// Whether `content` (with the attributes, if they count) fits the size limit.
    func fits(_ content: ActivityContent, attributes: ActivityAttributesPayload) -> Bool {
        config.contentStateViolation(state: content.state, attributes: attributes.value) == nil
    }
}
