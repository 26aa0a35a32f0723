import Testing
@testable import TimelineEngine
import GlimpseVocabulary
import EngineTesting

@Suite("Provider context sizes (spec §2 table)")
struct DisplaySizeTests {
    static let iPhone393: [(WidgetFamily, Double, Double)] = [
        (.systemSmall, 158, 158), (.systemMedium, 338, 158), (.systemLarge, 338, 354),
        (.accessoryCircular, 72, 72), (.accessoryRectangular, 160, 72), (.accessoryInline, 234, 26),
    ]

    @Test("on the default 393×852 screen the context carries the family's point size", arguments: iPhone393)
    func defaultScreenSizes(family: WidgetFamily, width: Double, height: Double) throws {
        let h = Harness()
        try h.scheduler.install(app: Fixture.app, kinds: [Fixture.widget(families: Set(WidgetFamily.allCases))])
        h.run { try! $0.place(Placement(id: 1, app: Fixture.app, kind: Fixture.kind, family: family)) }
        try h.settle()
        let context = try #require(h.fetches(of: 1).first?.request.context)
        #expect(context.family == family)
        #expect(context.displaySize == DisplaySize(width: width, height: height))
    }

    @Test("\"systemExtraLarge not on iPhone\": refused there, 748×356 on the iPad screen")
    func extraLargeIsIPadOnly() throws {
        let phone = Harness()
        try phone.scheduler.install(app: Fixture.app, kinds: [Fixture.widget(families: [.systemExtraLarge])])
        #expect(throws: PlacementError.familyNotOnDevice(family: .systemExtraLarge, device: .iPhone393x852)) {
            try phone.scheduler.place(Placement(id: 1, app: Fixture.app, kind: Fixture.kind, family: .systemExtraLarge))
        }
        var settings = TimelineSettings.defaults
        settings.deviceScreen = .iPad1024x1366
        let pad = Harness(settings: settings)
        try pad.scheduler.install(app: Fixture.app, kinds: [Fixture.widget(families: [.systemExtraLarge])])
        pad.run { try! $0.place(Placement(id: 1, app: Fixture.app, kind: Fixture.kind, family: .systemExtraLarge)) }
        try pad.settle()
        #expect(pad.fetches(of: 1).first?.request.context.displaySize == DisplaySize(width: 748, height: 356))
    }

    @Test(
        "the device-screen setting picks the row of the table",
        arguments: [
            (DeviceScreen.iPhone430x932, 170.0), (.iPhone393x852, 158), (.iPhone375x812, 155), (.iPhone375x667, 148),
            (.iPad1024x1366, 160),
        ])
    func screenSetting(screen: DeviceScreen, smallSide: Double) {
        #expect(screen.displaySize(of: .systemSmall) == DisplaySize(width: smallSide, height: smallSide))
    }

    @Test("a gallery preview context says isPreview and costs no placement")
    func previewContext() throws {
        let h = try Fixture.harness(placements: 0)
        let context = try h.scheduler.previewContext(app: Fixture.app, kind: Fixture.kind, family: .systemMedium)
        #expect(context.isPreview)
        #expect(context.displaySize == DisplaySize(width: 338, height: 158))
        #expect(h.scheduler.placementCount == 0)
    }
}
