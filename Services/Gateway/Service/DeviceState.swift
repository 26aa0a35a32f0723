#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineHosting
import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
import RPCCore

/// What the device knows and shows: installed apps and their tokens, where each widget
/// sits, the settings (kept in `DeviceStore`), and the last known state of each placement
/// and Live Activity (from glimpse-timeline's `WatchEntries` and glimpse-activity's
/// `WatchActivities`). Waiters let a call return once the screen shows its effect.
package actor DeviceState {
    struct CachedEntry {
        var entry: GlimpseWidgetV1.TimelineEntry?
        /// No entry yet: the app's placeholder(in:), if it gave one.
        var placeholder: GlimpseWidgetV1.TimelineEntry? = nil
        var sequence: UInt64
    }

    enum Condition {
        case entry(UInt64, after: UInt64)
        /// The placement's provider has answered once: a timeline, or an error.
        case provided(UInt64)
        /// The placement's provider answered (a new entry, the same one, or an error) after
        /// `timelineChanges` was at this count: a reload asked for then is done.
        case answered(UInt64, after: UInt64)
        case sequence(Upstreams.Service, atLeast: UInt64)
        /// The activity shows this content (or is gone).
        case activityContent(String, GlimpseActivityV1.Content?)
        /// The activity is as `activity` says, or further along (ended, dismissed, gone):
        /// what an ActivityKit call answered is on the screen.
        case activityShows(GlimpseActivityV1.Activity)
    }

    let store: DeviceStore
    private(set) var apps: [String: GlimpseGatewayV1.StoredApp] = [:]
    private var bundleByToken: [String: String] = [:]
    private(set) var placements: [UInt64: GlimpseGatewayV1.StoredPlacement] = [:]
    /// Placements being added (Place in progress, or failed and not yet taken back from the
    /// services): kept in the store so that none is left behind at a service.
    var pending: [UInt64: GlimpseGatewayV1.StoredPlacement] = [:]
    /// The next id a new placement gets: the gateway names placements, so that a Place that
    /// fails half-way knows what to take back.
    var nextPlacementID: UInt64 = 1
    /// Pending placements whose Place is still running (the sweeper leaves them alone).
    var placing: Set<UInt64> = []
    /// Signalled when a Place ends leaving its placement pending: wakes the sweeper.
    nonisolated let placeEnds = Wakeup()
    /// The Home Screen's slots (a slot with several placements is a Smart Stack), the
    /// cells each page's slots cover and the next free slot number of each page: kept as
    /// placements come and go, so placing stays cheap with thousands of widgets.
    private var homeSlots: [HomeSlot: [UInt64]] = [:]
    private var pageCells: [UInt32: Int] = [:]
    private var pageNextSlot: [UInt32: UInt32] = [:]

    struct HomeSlot: Hashable {
        var page: UInt32
        var slot: UInt32
    }
    private var nextOrder: UInt64 = 1
    private(set) var settings: GlimpseGatewayV1.Settings
    private var entries: [UInt64: CachedEntry] = [:]
    /// When each placement's provider last answered (a timeline or an error), counted in
    /// changes received from glimpse-timeline (`timelineChanges`).
    private var answered: [UInt64: UInt64] = [:]
    /// Every change received from glimpse-timeline, counted here: unlike the service's own
    /// sequence, it never starts again when glimpse-timeline restarts.
    private(set) var timelineChanges: UInt64 = 0
    private(set) var activities: [String: GlimpseActivityV1.Activity] = [:]
    private var lastSequence: [Upstreams.Service: UInt64] = [:]
    private(set) var unreachable: [Upstreams.Service: String] = [:]
    private(set) var longPressed: String?
    private var waiters: [Int: (Condition, CheckedContinuation<Bool, Never>)] = [:]
    private var nextWaiter = 0

    /// `screen`: the device model (the hardware: it wins over what the store remembers).
    package init(store: DeviceStore, screen: String? = nil) throws {
        self.store = store
        for app in try store.all(.app, as: GlimpseGatewayV1.StoredApp.self) {
            apps[app.manifest?.bundleId ?? ""] = app
            bundleByToken[app.appToken] = app.manifest?.bundleId ?? ""
        }
        for placement in try store.all(.placement, as: GlimpseGatewayV1.StoredPlacement.self) {
            placements[placement.placementId] = placement
            nextOrder = max(nextOrder, placement.addedOrder + 1)
        }
        for placement in try store.all(.pending, as: GlimpseGatewayV1.StoredPlacement.self) {
            pending[placement.placementId] = placement
        }
        nextPlacementID = (Array(placements.keys) + Array(pending.keys)).max().map { $0 + 1 } ?? 1
        for placement in placements.values.sorted(by: { $0.addedOrder < $1.addedOrder }) {
            Self.index(placement, slots: &homeSlots, cells: &pageCells, next: &pageNextSlot)
        }
        settings = try store.all(.settings, as: GlimpseGatewayV1.Settings.self).first ?? Self.defaultSettings
        if let screen { settings.device = screen }
    }

    static var defaultSettings: GlimpseGatewayV1.Settings {
        var settings = GlimpseGatewayV1.Settings()
        settings.device = DeviceScreen.default.rawValue
        settings.locale = "en_US"
        settings.dynamicTypeSize = "large"
        return settings
    }

    var screen: DeviceScreen { DeviceScreen(rawValue: settings.device) ?? .default }

    // MARK: Apps

    func app(_ bundleID: String) -> GlimpseGatewayV1.StoredApp? { apps[bundleID] }

    /// The app an app token belongs to; UNAUTHENTICATED for a token no app holds.
    func app(forToken token: String) throws(RPCError) -> GlimpseGatewayV1.StoredApp {
        guard let bundle = bundleByToken[token], let app = apps[bundle] else {
            throw RPCError(code: .unauthenticated, message: "unknown app token")
        }
        return app
    }

    func installed(_ app: GlimpseGatewayV1.StoredApp) throws {
        let bundle = app.manifest?.bundleId ?? ""
        try store.put(.app, bundle, app)
        if let old = apps[bundle] { bundleByToken.removeValue(forKey: old.appToken) }
        apps[bundle] = app
        bundleByToken[app.appToken] = bundle
    }

    /// Forgets the app and its placements; returns the placements that went.
    func uninstalled(_ bundleID: String) throws -> [UInt64] {
        let gone = placements.values.filter { $0.bundleId == bundleID }.map(\.placementId).sorted()
        for id in gone { try removePlacement(id) }
        try store.delete(.app, bundleID)
        if let old = apps.removeValue(forKey: bundleID) { bundleByToken.removeValue(forKey: old.appToken) }
        return gone
    }

    // MARK: Placements and the screen's layout

    func placement(_ id: UInt64) throws(RPCError) -> GlimpseGatewayV1.StoredPlacement {
        guard let placement = placements[id] else {
            throw RPCError(code: .notFound, message: "no placement \(id) on this device")
        }
        return placement
    }

    /// Where a new widget of `family` goes: `request.page` (or the next page with room) on
    /// the Home Screen, a Smart Stack with `stackWith`, or the Lock Screen's accessory
    /// rows. Refuses what the real screen refuses (a full Lock Screen, a stack of mixed
    /// sizes or of more than 10 widgets).
    func location(
        for request: GlimpseGatewayV1.PlaceRequest, family: WidgetFamily
    ) throws(RPCError) -> GlimpseGatewayV1.Location {
        var location = GlimpseGatewayV1.Location()
        let screenSide: GlimpseTimelineV1.Screen =
            request.screen == .unspecified
            ? (family.isAccessory ? .lock : .home) : request.screen
        location.screen = screenSide
        if screenSide == .lock {
            guard family.isAccessory else {
                throw RPCError(
                    code: .invalidArgument,
                    message: "family: \(family) is a Home Screen family; the Lock Screen takes accessory families")
            }
            let lock = placements.values.filter { $0.location?.screen == .lock }
            if family == .accessoryInline {
                guard !lock.contains(where: { $0.family == .accessoryInline }) else {
                    throw RPCError(
                        code: .resourceExhausted,
                        message: "the Lock Screen has one accessoryInline slot (above the clock) and it is taken")
                }
                location.slot = 0
                return location
            }
            let used = lock.reduce(0) { $0 + Self.lockUnits($1.family) }
            guard used + Self.lockUnits(family.wire) <= 4 else {
                throw RPCError(
                    code: .resourceExhausted,
                    message:
                        "the Lock Screen's row below the clock is full (\(used) of 4 units: circular 1, rectangular 2)")
            }
            location.slot = UInt32(lock.filter { $0.family != .accessoryInline }.count + 1)
            return location
        }
        guard !family.isAccessory else {
            throw RPCError(code: .invalidArgument, message: "family: \(family) is a Lock Screen family")
        }
        if request.stackWith != 0 {
            let base = try placement(request.stackWith)
            guard let baseLocation = base.location, baseLocation.screen == .home else {
                throw RPCError(
                    code: .failedPrecondition,
                    message: "stack_with: placement \(request.stackWith) is not on the Home Screen")
            }
            guard base.family == family.wire else {
                throw RPCError(
                    code: .failedPrecondition,
                    message: "stack_with: a Smart Stack holds widgets of one size (\(base.family) here)")
            }
            let stack = homeSlots[HomeSlot(page: baseLocation.page, slot: baseLocation.slot)] ?? []
            guard stack.count < 10 else {
                throw RPCError(code: .resourceExhausted, message: "a Smart Stack holds at most 10 widgets")
            }
            location.page = baseLocation.page
            location.slot = baseLocation.slot
            location.stackPosition =
                stack.compactMap { placements[$0]?.location?.stackPosition }.max().map { $0 + 1 } ?? 0
            return location
        }
        let capacity = screen == .iPad1024x1366 ? 48 : 24
        let cells = Self.homeCells(family.wire)
        var page = request.page
        while (pageCells[page] ?? 0) + cells > capacity { page += 1 }
        location.page = page
        location.slot = pageNextSlot[page] ?? 0
        return location
    }

    private func indexHome(_ placement: GlimpseGatewayV1.StoredPlacement) {
        Self.index(placement, slots: &homeSlots, cells: &pageCells, next: &pageNextSlot)
    }

    private static func index(
        _ placement: GlimpseGatewayV1.StoredPlacement, slots: inout [HomeSlot: [UInt64]],
        cells: inout [UInt32: Int], next: inout [UInt32: UInt32]
    ) {
        guard let location = placement.location, location.screen == .home else { return }
        let key = HomeSlot(page: location.page, slot: location.slot)
        if slots[key] == nil { cells[location.page, default: 0] += homeCells(placement.family) }
        slots[key, default: []].append(placement.placementId)
        next[location.page] = max(next[location.page] ?? 0, location.slot + 1)
    }

    private func unindexHome(_ placement: GlimpseGatewayV1.StoredPlacement) {
        guard let location = placement.location, location.screen == .home else { return }
        let key = HomeSlot(page: location.page, slot: location.slot)
        homeSlots[key]?.removeAll { $0 == placement.placementId }
        if homeSlots[key]?.isEmpty == true {
            homeSlots[key] = nil
            pageCells[location.page, default: 0] -= Self.homeCells(placement.family)
        }
    }

    /// Home Screen cells a widget covers (a page is 4×6 cells on an iPhone, 8×6 on the iPad).
    static func homeCells(_ family: GlimpseWidgetV1.WidgetFamily) -> Int {
        switch family {
        case .systemSmall: 4
        case .systemMedium: 8
        case .systemLarge: 16
        case .systemExtraLarge: 32
        default: 0
        }
    }

    /// Units of the Lock Screen's row below the clock (4 in all).
    static func lockUnits(_ family: GlimpseWidgetV1.WidgetFamily) -> Int {
        switch family {
        case .accessoryCircular: 1
        case .accessoryRectangular: 2
        default: 0
        }
    }

    func placed(_ placement: GlimpseGatewayV1.StoredPlacement) throws {
        var placement = placement
        placement.addedOrder = nextOrder
        nextOrder += 1
        try store.put(.placement, Self.key(placement.placementId), placement)
        placements[placement.placementId] = placement
        indexHome(placement)
        try settled(placement.placementId)
    }

    func reconfigured(_ id: UInt64, _ configuration: [String: GlimpseWidgetV1.ParameterValue]) throws {
        guard var placement = placements[id] else { return }
        placement.configuration = configuration
        try store.put(.placement, Self.key(id), placement)
        placements[id] = placement
    }

    func removePlacement(_ id: UInt64) throws {
        guard let placement = placements[id] else { return }
        try store.delete(.placement, Self.key(id))
        placements.removeValue(forKey: id)
        unindexHome(placement)
        entries.removeValue(forKey: id)
        answered.removeValue(forKey: id)
    }

    /// Keys sort as numbers.
    static func key(_ id: UInt64) -> String {
        let digits = String(id)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }

    // MARK: What the services streamed

    /// Records a change; true when the entry differs from the one shown (a replay after a
    /// reconnection repeats the current entries: those are not news).
    func entryChanged(_ change: GlimpseTimelineV1.EntryChange) -> Bool {
        timelineChanges += 1
        defer { checkWaiters() }
        // Not news for the screen: the same entry, answered again.
        if change.unchanged { return false }
        if change.reload != nil || change.providerError != nil { return true }
        if change.removed {
            answered.removeValue(forKey: change.placementId)
            return entries.removeValue(forKey: change.placementId) != nil
        }
        let old = entries[change.placementId]
        let new = CachedEntry(
            entry: change.entry, placeholder: change.entry == nil ? change.placeholder : nil, sequence: change.sequence)
        entries[change.placementId] = new
        return old == nil || old?.entry != new.entry || old?.placeholder != new.placeholder
    }

    func entry(_ id: UInt64) -> (GlimpseWidgetV1.TimelineEntry?, UInt64) {
        let cached = entries[id]
        return (cached?.entry, cached?.sequence ?? 0)
    }

    /// The app's placeholder a placement without an entry shows, if the app gave one.
    func placeholder(_ id: UInt64) -> GlimpseWidgetV1.TimelineEntry? { entries[id]?.placeholder }

    /// After a change's event is in the log (`entryChanged` came first): a wait for its
    /// answer or its service's watermark may go on now, so what the waiter does next is
    /// logged after it.
    func streamed(_ change: GlimpseTimelineV1.EntryChange) {
        lastSequence[.timeline] = max(lastSequence[.timeline] ?? 0, change.sequence)
        // A provider's answer (an entry, the same one, or a failure): not an entry the clock
        // brought, which may come while the call is still out.
        if change.answer, !change.removed { answered[change.placementId] = timelineChanges }
        checkWaiters()
    }

    /// After an activity change's event is in the log: a wait for the service's watermark may go on.
    func streamed(_ change: GlimpseActivityV1.ActivityChange) {
        lastSequence[.activity] = max(lastSequence[.activity] ?? 0, change.sequence)
        checkWaiters()
    }

    func activityChanged(_ change: GlimpseActivityV1.ActivityChange) -> Bool {
        defer { checkWaiters() }
        guard var activity = activities[change.activityId] else { return false }
        switch change.change {
        case .state(let state)?:
            activity.state = state.to
            if state.to == .ended {
                activity.endedAt = change.at
                activity.dismissalDate = state.dismissalDate
            }
        case .content(let content)?:
            if let new = content.content { activity.content = new }
            if let alert = content.alert {
                activity.lastAlert = alert
                activity.lastAlertAt = change.at
            }
        case .pushToken(let token)?:
            activity.pushToken = token.pushToken
        case .pushToStartToken?, .dropped?, nil:
            break
        }
        activities[change.activityId] = activity
        return true
    }

    func knowsActivity(_ id: String) -> Bool { activities[id] != nil }

    func setActivity(_ activity: GlimpseActivityV1.Activity) {
        if activity.state == .dismissed {
            activities.removeValue(forKey: activity.activityId)
        } else {
            activities[activity.activityId] = activity
        }
    }

    /// An activity a call's answer carried (a Request): kept only when the followers have not
    /// brought it yet — what they brought is as new as the answer or newer (a push token
    /// issued right after the request), and the answer must not take it back.
    func learnActivity(_ activity: GlimpseActivityV1.Activity) {
        if activities[activity.activityId] == nil { setActivity(activity) }
    }

    func replaceActivities(_ list: [GlimpseActivityV1.Activity]) {
        activities = [:]
        for activity in list { setActivity(activity) }
    }

    func sequence(_ service: Upstreams.Service) -> UInt64 { lastSequence[service] ?? 0 }

    func setReachable(_ service: Upstreams.Service, _ reachable: Bool, detail: String) -> Bool {
        if reachable {
            return unreachable.removeValue(forKey: service) != nil
        }
        let changed = unreachable[service] == nil
        unreachable[service] = detail
        return changed
    }

    func setLongPressed(_ id: String?) { longPressed = id }

    // MARK: Settings

    func updateSettings(_ change: (inout GlimpseGatewayV1.Settings) -> Void) throws -> GlimpseGatewayV1.Settings {
        change(&settings)
        try store.put(.settings, "device", settings)
        return settings
    }

    func reset() throws {
        try store.deleteAll([.app, .placement, .settings])
        nextPlacementID = max(nextPlacementID, (placements.keys.max() ?? 0) + 1)
        apps = [:]
        bundleByToken = [:]
        placements = [:]
        homeSlots = [:]
        pageCells = [:]
        pageNextSlot = [:]
        entries = [:]
        answered = [:]
        settings = Self.defaultSettings
        longPressed = nil
    }

    // MARK: Waiting for the screen

    /// Waits until `condition` holds or `timeout` passes; true when it holds.
    func wait(for condition: Condition, timeout: Duration) async -> Bool {
        if satisfied(condition) { return true }
        let id = nextWaiter
        nextWaiter += 1
        return await withCheckedContinuation { continuation in
            waiters[id] = (condition, continuation)
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(id)
            }
        }
    }

    private func expire(_ id: Int) {
        waiters.removeValue(forKey: id)?.1.resume(returning: false)
    }

    private func satisfied(_ condition: Condition) -> Bool {
        switch condition {
        case .entry(let id, let after): (entries[id]?.sequence ?? 0) > after
        case .provided(let id): answered[id] != nil
        case .answered(let id, let after): (answered[id] ?? 0) > after
        case .sequence(let service, let atLeast): (lastSequence[service] ?? 0) >= atLeast
        case .activityContent(let id, let content): activities[id].map { $0.content == content } ?? true
        case .activityShows(let target):
            activities[target.activityId].map { shown in
                Self.stage(shown.state) > Self.stage(target.state)
                    || (Self.stage(shown.state) == Self.stage(target.state) && shown.content == target.content)
            } ?? true
        }
    }

    /// How far along a Live Activity is: a later stage is never undone.
    static func stage(_ state: GlimpseActivityV1.ActivityState) -> Int {
        switch state {
        case .ended: 2
        case .dismissed: 3
        default: 1
        }
    }

    private func checkWaiters() {
        guard !waiters.isEmpty else { return }
        for (id, waiter) in waiters where satisfied(waiter.0) {
            waiters.removeValue(forKey: id)
            waiter.1.resume(returning: true)
        }
    }
}
