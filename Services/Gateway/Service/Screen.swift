#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityEngine
package import GlimpseMessages
import GlimpseVocabulary
import ProtoMapping
package import RPCCore

/// A wire activity as the presentation rules read it.
struct WireActivity: PresentationCandidate {
    let activity: GlimpseActivityV1.Activity
    var id: ActivityID { Self.id(activity.activityId) }
    static func id(_ text: String) -> ActivityID {
        ActivityID(text) ?? ActivityID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    }
    var app: AppID { AppID(activity.bundleId) }
    var state: ActivityState {
        switch activity.state {
        case .pending: .pending
        case .active: .active
        case .stale: .stale
        case .ended: .ended
        default: .dismissed
        }
    }
    var relevanceScore: Double { activity.content?.relevanceScore ?? 0 }
    var activatedAt: Date? { activity.activatedAt.map(Date.init) }
    var startOrder: UInt64 { activity.startOrder }
    var lastAlertAt: Date? { activity.lastAlertAt.map(Date.init) }
}

extension Gateway {
    /// What the Dynamic Island and the Lock Screen show now, by the activity engine's rules.
    func presentation() async -> (PresentationLayout, [String: GlimpseActivityV1.Activity]) {
        let activities = await device.activities
        let pressed = await device.longPressed.map(WireActivity.id)
        let layout = PresentationRules.layout(
            of: activities.values.map(WireActivity.init), now: now(), longPressed: pressed)
        return (layout, activities)
    }

    func dynamicIsland(_ layout: PresentationLayout) -> GlimpseGatewayV1.DynamicIsland {
        var island = GlimpseGatewayV1.DynamicIsland()
        switch layout.dynamicIsland {
        case .none: island.mode = .none
        case .compact(let id):
            island.mode = .compact
            island.activityId = id.description
        case .minimal(let attached, let detached):
            island.mode = .minimal
            island.activityId = attached.description
            island.detachedActivityId = detached.description
        case .expanded(let id, let reason):
            island.mode = .expanded
            island.activityId = id.description
            island.reason = reason.rawValue
            island.until = layout.validUntil.map(GoogleProtobuf.Timestamp.init)
        }
        return island
    }

    func view(
        of activity: GlimpseActivityV1.Activity, in layout: PresentationLayout, stale: Bool
    ) -> GlimpseGatewayV1.ActivityView {
        var view = GlimpseGatewayV1.ActivityView()
        view.activity = activity
        view.stale = stale
        let id = WireActivity.id(activity.activityId)
        if layout.lockScreen.contains(id) { view.presentations.append("lockScreen") }
        switch layout.dynamicIsland {
        case .compact(let shown) where shown == id: view.presentations.append("compact")
        case .minimal(let a, let b) where a == id || b == id: view.presentations.append("minimal")
        case .expanded(let shown, _) where shown == id: view.presentations.append("expanded")
        default: break
        }
        return view
    }

    package func activityViews(bundle: String) async -> [GlimpseGatewayV1.ActivityView] {
        let (layout, activities) = await presentation()
        let stale = await device.unreachable[.activity] != nil
        return activities.values
            .filter { bundle.isEmpty || $0.bundleId == bundle }
            .sorted { PresentationRules.moreRelevant(WireActivity(activity: $0), WireActivity(activity: $1)) }
            .map { view(of: $0, in: layout, stale: stale) }
    }

    package func activityView(_ id: String) async throws(RPCError) -> GlimpseGatewayV1.ActivityView {
        let (layout, activities) = await presentation()
        guard let activity = activities[id] else {
            throw RPCError(code: .notFound, message: "no activity \(id) on this device")
        }
        return view(of: activity, in: layout, stale: await device.unreachable[.activity] != nil)
    }

    /// The whole screen.
    package func screen() async -> GlimpseGatewayV1.Screen {
        var screen = GlimpseGatewayV1.Screen()
        let model = await device.screen
        let settings = await device.settings
        screen.device = model.rawValue
        screen.size = GlimpseWidgetV1.DisplaySize(model.screenSize)
        screen.locked = settings.locked
        screen.now = GoogleProtobuf.Timestamp(now())
        screen.unreachableServices = await device.unreachable.keys.sorted().map { "glimpse-\($0.rawValue)" }
        let widgets = await widgets(bundle: "")
        // Home Screen: pages of slots; a slot with several widgets is a Smart Stack, the
        // most relevant on top.
        var pages: [UInt32: [UInt32: [GlimpseGatewayV1.Widget]]] = [:]
        var lock = GlimpseGatewayV1.Screen.LockScreen()
        for widget in widgets {
            guard let location = widget.location else { continue }
            if location.screen == .lock {
                lock.widgets.append(widget)
            } else {
                pages[location.page, default: [:]][location.slot, default: []].append(widget)
            }
        }
        lock.widgets.sort { ($0.location?.slot ?? 0) < ($1.location?.slot ?? 0) }
        let at = now()
        if let last = pages.keys.max() {
            for page in 0...last {
                var homePage = GlimpseGatewayV1.Screen.HomePage()
                for slot in (pages[page] ?? [:]).keys.sorted() {
                    var entry = GlimpseGatewayV1.Screen.Slot()
                    entry.widgets = Self.stackOrder(pages[page]![slot]!, now: at)
                    homePage.slots.append(entry)
                }
                screen.homePages.append(homePage)
            }
        }
        let (layout, _) = await presentation()
        lock.activities = await activityViews(bundle: "").filter {
            layout.lockScreen.contains(WireActivity.id($0.activity?.activityId ?? ""))
        }
        screen.lockScreen = lock
        screen.dynamicIsland = dynamicIsland(layout)
        return screen
    }

    /// A Smart Stack's order: the current entry's relevance score while it counts (from the
    /// entry's date for its duration; a zero duration: while it is current), highest first;
    /// unscored widgets after, in the order they were stacked.
    static func stackOrder(_ widgets: [GlimpseGatewayV1.Widget], now: Date) -> [GlimpseGatewayV1.Widget] {
        func score(_ widget: GlimpseGatewayV1.Widget) -> Float {
            guard let entry = widget.entry, let relevance = entry.relevance else { return -.infinity }
            let start = entry.date.map(Date.init) ?? .distantPast
            let seconds = relevance.duration.map { Double($0.seconds) + Double($0.nanos) / 1e9 } ?? 0
            if seconds > 0, now >= start.addingTimeInterval(seconds) { return -.infinity }
            return relevance.score
        }
        return widgets.enumerated().sorted { a, b in
            let (sa, sb) = (score(a.element), score(b.element))
            if sa != sb { return sa > sb }
            return (a.element.location?.stackPosition ?? 0, a.offset) < (
                b.element.location?.stackPosition ?? 0, b.offset
            )
        }.map(\.element)
    }
}

extension Date {
    /// A wire instant (any Timestamp the services sent; no range check needed to show it).
    init(_ timestamp: GoogleProtobuf.Timestamp) {
        self.init(timeIntervalSince1970: Double(timestamp.seconds) + Double(timestamp.nanos) / 1e9)
    }
}
