import Foundation
import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

/// Seed 004, Ride the Lightning Air, the timeline side: "`policy: .never` … The intent
/// fires, updates FlightStore, and the reloadAllTimelines() call … causes the system to
/// call getTimeline again immediately." Here each tap's reload reaches the scheduler as
/// `reload(_:reason: .intentPerformed)` (the intent engine's one reload per tap).
@Suite("Seed 004: Ride the Lightning Air — timeline side")
struct RideTheLightningTimelineTests {
    static let app: AppID = "net.insoc.rtlair"

    @Test("three states by two taps: each tap gives exactly one free reload; .never asks for nothing else")
    func threeStates() throws {
        let h = Harness()
        try h.scheduler.install(
            app: Self.app,
            kinds: [
                WidgetKind(kind: "MediumWidget", displayName: "RTL Flight Status", supportedFamilies: [.systemMedium]),
                WidgetKind(
                    kind: "LockScreenWidget", displayName: "RTL Flight", supportedFamilies: [.accessoryRectangular]),
            ])
        var flightStatus = "notCheckedIn"  // the App Group key the intents write
        h.provider = { _, now in
            let button =
                ["notCheckedIn": "|button:CheckInIntent", "checkedIn": "|button:ConfirmGateIntent"][flightStatus] ?? ""
            return .timeline(
                Timeline(
                    entries: [TimelineEntry(date: now, content: Array("RTL 001 \(flightStatus)\(button)".utf8))],
                    policy: .never))
        }
        try h.run { try $0.place(Placement(id: 1, app: Self.app, kind: "MediumWidget", family: .systemMedium)) }
        try h.run {
            try $0.place(Placement(id: 2, app: Self.app, kind: "LockScreenWidget", family: .accessoryRectangular))
        }
        try h.advance(minutes: 60)

        for status in ["checkedIn", "gateConfirmed"] {
            flightStatus = status
            try h.run { try $0.reload(1, reason: .intentPerformed) }
            try h.advance(minutes: 60)
        }
        #expect(h.fetchMinutes(of: 1) == [0, 60, 120])
        #expect(
            h.fetches(of: 1).dropFirst().allSatisfy { !$0.request.charged && $0.request.reason == .intentPerformed })
        #expect(
            h.shown(1).compactMap { $0.content.map { String(decoding: $0, as: UTF8.self) } } == [
                "RTL 001 notCheckedIn|button:CheckInIntent", "RTL 001 checkedIn|button:ConfirmGateIntent",
                "RTL 001 gateConfirmed",
            ])
        #expect(h.fetchMinutes(of: 2) == [0])  // the lock-screen widget was not tapped, so not reloaded
        try h.advance(minutes: 24 * 60)
        #expect(h.fetches().count == 4)
    }
}
