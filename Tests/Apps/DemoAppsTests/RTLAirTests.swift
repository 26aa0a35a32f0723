@testable import DemoApps
import GlimpseKit
import Foundation
import GlimpseMessages
import Synchronization
import Testing

/// An App Group held in memory, as the gateway would answer it.
final class MemoryDefaults: SharedDefaults {
    let values = Mutex<[String: String]>([:])

    func value(forKey key: String, inGroup group: String) async -> GlimpseWidgetV1.ParameterValue? {
        values.withLock { $0["\(group)/\(key)"] }.map { .init(kind: .stringValue($0)) }
    }

    func set(_ value: String, forKey key: String, inGroup group: String) {
        values.withLock { $0["\(group)/\(key)"] = value }
    }
}

@Suite struct RideTheLightningAirTests {
    let defaults = MemoryDefaults()
    var provider: FlightProvider { FlightProvider(store: FlightStore(defaults: defaults)) }

    func timeline(
        _ kind: String = FlightProvider.mediumKind, _ family: GlimpseWidgetV1.WidgetFamily = .systemMedium
    ) async -> GlimpseWidgetV1.Timeline {
        await provider.timeline(kind: kind, in: .family(family), now: start)
    }

    @Test func oneEntryNowAndNever() async {
        let timeline = await timeline()
        #expect(timeline.entries.count == 1 && timeline.entries.first?.date == .init(date: start))
        #expect(timeline.reloadPolicy == .never)
        #expect(timeline.entries.first?.widgetUrl == "rtlair://flight/RTL001")
    }

    @Test(arguments: [
        ("notCheckedIn", "Not Checked In", ["CheckInIntent"], "checkin"),
        ("checkedIn", "Checked In ✓", ["ConfirmGateIntent"], "gate"),
        ("gateConfirmed", "Cleared ⚡️", [], ""),
    ])
    func eachStateShowsItsButton(status: String, label: String, intents: [String], id: String) async throws {
        defaults.set(status, forKey: "flightStatus", inGroup: "group.net.insoc.rtlair")
        let view = try #require(await timeline().entries.first?.view)
        #expect(view.texts.contains(label))
        #expect(view.buttonIntents == intents)
        if !id.isEmpty { #expect(view.view(id: id) != nil) }
        #expect(view.texts.contains("SFO → JFK") && view.texts.contains("Gate M72"))
        #expect(
            view.modifiers.contains {
                $0.kind == .containerBackground(.init(style: .color(.black), placement: .widget))
            })
    }

    @Test func theLockScreenWidgetFollowsTheSameStatusWithoutAButton() async throws {
        defaults.set("checkedIn", forKey: "flightStatus", inGroup: "group.net.insoc.rtlair")
        let view = try #require(
            await timeline(FlightProvider.lockScreenKind, .accessoryRectangular).entries.first?.view)
        #expect(view.texts == ["⚡️", "RTL 001", "·", "SFO → JFK", "·", "Gate M72", "·", "Checked In ✓"])
        #expect(view.buttonIntents.isEmpty)
        #expect(view.modifiers.contains { $0.kind == .containerBackground(.init(style: nil, placement: .widget)) })
    }

    @Test func withoutTheAppGroupTheDefaultStateShows() async throws {
        let provider = FlightProvider(store: FlightStore(defaults: NoSharedDefaults()))
        let view = try #require(
            await provider.timeline(kind: FlightProvider.mediumKind, in: .family(.systemMedium), now: start).entries
                .first?.view)
        #expect(view.texts.contains("Not Checked In") && view.buttonIntents == ["CheckInIntent"])
        defaults.set("boarding", forKey: "flightStatus", inGroup: "group.net.insoc.rtlair")
        #expect(await FlightStore(defaults: defaults).status() == .notCheckedIn)
    }

    @Test func theTokenIsReadWhenNeededAndAgainAfterARefusal() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rtl-\(UUID().uuidString).token").path
        let token = AppToken(path: path)
        #expect(token.current() == nil)  // not installed yet
        try "first\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(token.current() == "first")
        try "second".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(token.current() == "first")  // cached until the gateway refuses it
        token.invalidate()
        #expect(token.current() == "second")
        try? FileManager.default.removeItem(atPath: path)
    }
}
