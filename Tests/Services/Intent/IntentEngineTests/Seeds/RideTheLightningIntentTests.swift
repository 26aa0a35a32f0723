import Testing
@testable import IntentEngine
import GlimpseVocabulary
import EngineTesting

/// Seed 004, Ride the Lightning Air: "three states. Two intents. One TimelineProvider."
/// `CheckInIntent` and `ConfirmGateIntent` set `flightStatus` in the App Group
/// `group.net.insoc.rtlair`; "The terminal state has no button"; the Lock Screen widget
/// (`accessoryRectangular`) "is read-only".
@Suite("Seed 004: Ride the Lightning Air — intent side")
struct RideTheLightningIntentTests {
    static let app: AppID = "net.insoc.rtlair"
    static let group: GroupID = "group.net.insoc.rtlair"

    static func airline() throws -> IntentHarness {
        let h = IntentHarness()
        try h.executor.install(
            app: app, groups: [group],
            intents: [
                IntentDefinition(
                    type: "CheckInIntent", title: "Check In",
                    action: .store(
                        group: group, operations: [.set(key: "flightStatus", to: .literal(.string("checkedIn")))]),
                    widgetKinds: ["MediumWidget"]),
                IntentDefinition(
                    type: "ConfirmGateIntent", title: "Confirm Gate",
                    action: .store(
                        group: group, operations: [.set(key: "flightStatus", to: .literal(.string("gateConfirmed")))]),
                    widgetKinds: ["MediumWidget"]),
            ])
        return h
    }

    /// The provider's side, as the seed's view switch has it: which button the widget shows.
    static func button(_ h: IntentHarness) -> String? {
        let status = h.executor.store.value("flightStatus", in: group) ?? .string("notCheckedIn")
        return [TypedValue.string("notCheckedIn"): "CheckInIntent", .string("checkedIn"): "ConfirmGateIntent"][status]
    }

    @Test("notCheckedIn → checkedIn → gateConfirmed by the two buttons, one reload per tap, no button at the end")
    func threeStates() throws {
        let h = try Self.airline()
        var seen: [String] = []
        // Bounded: a tap that stopped writing would leave the same button forever.
        for _ in 0..<3 {
            guard let intent = Self.button(h) else { break }
            seen.append(intent)
            h.tap(intent, placement: 1, kind: "MediumWidget", family: .systemMedium, app: Self.app)
        }
        #expect(seen == ["CheckInIntent", "ConfirmGateIntent"])
        #expect(h.executor.store.value("flightStatus", in: Self.group) == .string("gateConfirmed"))
        #expect(h.reloads == [1, 1])
        #expect(h.completions.allSatisfy { $0.result == .performed(nil) })
        // The provider watching the App Group sees both writes.
        #expect(
            h.executor.store.changes(in: Self.group, since: 0)
                == .changes(
                    [
                        StoreChange(sequence: 1, key: "flightStatus", value: .string("checkedIn")),
                        StoreChange(sequence: 2, key: "flightStatus", value: .string("gateConfirmed")),
                    ], latest: 2))
    }

    @Test("the accessoryRectangular Lock Screen widget is read-only: a tap there is refused, nothing reloads")
    func lockScreenReadOnly() throws {
        let h = try Self.airline()
        let effects = h.tap(
            "CheckInIntent", placement: 2, kind: "LockScreenWidget", family: .accessoryRectangular, app: Self.app)
        #expect(
            effects.contains {
                if case .completed(let c) = $0 {
                    c.result == .refused(.notOfferedByKind(intent: "CheckInIntent", kind: "LockScreenWidget"))
                } else {
                    false
                }
            })
        #expect(h.reloads.isEmpty)
        #expect(h.executor.store.value("flightStatus", in: Self.group) == nil)
    }
}
