import Foundation
import GlimpseVocabulary
import Testing
import EngineTesting
import IntentEngine
@testable import TimelineEngine

/// Seed 004, Ride the Lightning Air, both engines on one clock: the intents write
/// `flightStatus` into the App Group, and `FlightStore.status`'s setter calls
/// `reloadAllTimelines()` — "causes the system to call getTimeline again immediately" —
/// so the read-only `.never` Lock Screen widget follows every tap, not only the tapped one.
@Suite("Seed 004: Ride the Lightning Air — a tap, both widgets")
struct RideTheLightningFlowTests {
    static let app: AppID = "net.insoc.rtlair"
    static let group: GroupID = "group.net.insoc.rtlair"

    static func intents(reloads: IntentReloads) -> [IntentDefinition] {
        [("CheckInIntent", "checkedIn"), ("ConfirmGateIntent", "gateConfirmed")].map { type, status in
            IntentDefinition(
                type: type, title: type,
                action: .store(group: group, operations: [.set(key: "flightStatus", to: .literal(.string(status)))]),
                widgetKinds: ["MediumWidget"], reloads: reloads)
        }
    }

    /// Taps the medium widget's button until none is left; returns what each widget showed.
    static func fly(reloads: IntentReloads) throws -> (medium: [String], lock: [String]) {
        let h = Harness()
        var executor = IntentExecutor(clock: h.clock)
        try executor.install(app: app, groups: [group], intents: intents(reloads: reloads))
        try h.scheduler.install(
            app: app,
            kinds: [
                WidgetKind(kind: "MediumWidget", displayName: "RTL Flight Status", supportedFamilies: [.systemMedium]),
                WidgetKind(
                    kind: "LockScreenWidget", displayName: "RTL Flight", supportedFamilies: [.accessoryRectangular]),
            ])
        h.provider = { request, now in
            let status =
                executor.store.value("flightStatus", in: group).flatMap {
                    if case .string(let s) = $0 { s } else { nil }
                } ?? "notCheckedIn"
            let button =
                request.kind == "MediumWidget"
                ? (["notCheckedIn": "|CheckInIntent", "checkedIn": "|ConfirmGateIntent"][status] ?? "") : ""
            return .timeline(
                Timeline(entries: [TimelineEntry(date: now, content: Array((status + button).utf8))], policy: .never))
        }
        for (id, kind, family) in [
            (PlacementID(1), "MediumWidget", WidgetFamily.systemMedium),
            (2, "LockScreenWidget", .accessoryRectangular),
        ] {
            try h.run { try $0.place(Placement(id: id, app: app, kind: kind, family: family)) }
            executor.placementAdded(id, PlacedWidget(app: app, kind: kind, family: family))
        }
        try h.advance(minutes: 1)
        for tap in 0..<3 {
            guard let shown = h.scheduler.currentEntry(of: 1)?.content,
                let intent = String(decoding: shown, as: UTF8.self).split(separator: "|").dropFirst().first
            else { break }
            // The gateway's part: carry the executor's reload effects to the scheduler.
            for effect in executor.tap(
                WidgetTap(idempotencyKey: "tap-\(tap)", app: app, placement: 1, intent: String(intent)))
            {
                switch effect {
                case .reloadPlacement(let p): try h.run { try $0.reload(p, reason: .intentPerformed) }
                case .reloadAllTimelines(let a): h.run { $0.reloadAllTimelines(app: a, reason: .intentPerformed) }
                case .reloadTimelines(let kind, let a):
                    h.run { $0.reloadTimelines(ofKind: kind, app: a, reason: .intentPerformed) }
                default: break
                }
            }
            try h.settle()  // no time passes: "immediately"
        }
        func texts(_ id: PlacementID) -> [String] {
            h.shown(id).compactMap { $0.content.map { String(decoding: $0, as: UTF8.self) } }
        }
        return (texts(1), texts(2))
    }

    @Test("with the seed's reloadAllTimelines(), the Lock Screen widget follows each tap at once")
    func bothWidgetsFollow() throws {
        let flown = try Self.fly(reloads: .allTimelines)
        #expect(flown.medium == ["notCheckedIn|CheckInIntent", "checkedIn|ConfirmGateIntent", "gateConfirmed"])
        #expect(flown.lock == ["notCheckedIn", "checkedIn", "gateConfirmed"])
    }

    @Test("reloadTimelines(ofKind:) of the Lock Screen kind does the same")
    func ofKind() throws {
        let flown = try Self.fly(reloads: .kinds(["LockScreenWidget"]))
        #expect(flown.lock == ["notCheckedIn", "checkedIn", "gateConfirmed"])
    }

    @Test("without it only the tapped widget reloads: the .never Lock Screen widget stays \"notCheckedIn\"")
    func tappedOnly() throws {
        let flown = try Self.fly(reloads: .tappedWidget)
        #expect(flown.medium.last == "gateConfirmed")
        #expect(flown.lock == ["notCheckedIn"])
    }
}
