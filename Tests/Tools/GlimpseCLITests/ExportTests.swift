import GlimpseCLI
import GlimpseJSON
import GlimpseMessages
import Testing

@Suite("export/import: the snapshot file and how it places widgets back")
struct ExportTests {
    func widget(
        _ id: UInt64, page: UInt32, slot: UInt32, stack: UInt32 = 0, screen: GlimpseTimelineV1.Screen = .home
    ) -> GlimpseGatewayV1.Widget {
        var widget = sampleWidget(id: id, kind: "K\(id)")
        widget.location = .init(screen: screen, page: page, slot: slot, stackPosition: stack)
        return widget
    }

    @Test("the file round-trips the apps, widgets and settings")
    func roundTrip() throws {
        var settings = GlimpseGatewayV1.Settings()
        settings.locked = true
        settings.locale = "fr_FR"
        settings.appSwitches = ["com.example.cinema": .init(areActivitiesEnabled: false, frequentPushesEnabled: true)]
        let snapshot = DeviceSnapshot(
            exportedAt: ts("2026-01-01T09:00:00Z"),
            apps: [.init(bundleId: "com.example.cinema", displayName: "Cinema", widgetKinds: ["CheckIn"])],
            widgets: [widget(7, page: 0, slot: 0)], settings: settings)
        let text = snapshot.json.serialized()
        let back = try DeviceSnapshot(json: try JSONParser.parse(text))
        #expect(back.exportedAt == snapshot.exportedAt)
        #expect(back.apps == snapshot.apps)
        #expect(back.widgets == snapshot.widgets)
        #expect(back.settings == snapshot.settings)
        #expect(throws: DeviceSnapshot.Invalid.self) { try DeviceSnapshot(json: ["format": "something else"]) }
        #expect(throws: DeviceSnapshot.Invalid.self) {
            try DeviceSnapshot(json: ["format": .string(DeviceSnapshot.formatName), "widgets": 3])
        }
    }

    @Test("widgets go back in screen, page, slot and stack order; a stacked one joins its stack's new first")
    func placement() {
        let snapshot = DeviceSnapshot(
            exportedAt: nil, apps: [],
            widgets: [
                widget(20, page: 1, slot: 0), widget(11, page: 0, slot: 1, stack: 1), widget(10, page: 0, slot: 1),
                widget(5, page: 0, slot: 0), widget(30, page: 0, slot: 0, screen: .lock),
            ],
            settings: .init())
        #expect(snapshot.placementOrder.map(\.placementId) == [5, 10, 11, 20, 30])
        let stacked = snapshot.placeRequest(for: snapshot.widgets[1], placed: [10: 102])
        #expect(stacked.stackWith == 102)
        #expect(stacked.page == 0)
        #expect(stacked.kind == "K11")
        #expect(stacked.configuration == ["film": .init(kind: .stringValue("coco"))])
        let alone = snapshot.placeRequest(for: snapshot.widgets[0], placed: [10: 102])
        #expect(alone.stackWith == 0)
        #expect(alone.page == 1)
        #expect(snapshot.placeRequest(for: snapshot.widgets[4], placed: [:]).screen == .lock)
    }
}
