import GlimpseVocabulary
import Testing

@Suite struct DeviceScreenTests {
    @Test("every family of the spec's table has a size on some device, and none is invented")
    func widgetSizes() {
        #expect(DeviceScreen.iPhone393x852.displaySize(of: .systemSmall) == DisplaySize(width: 158, height: 158))
        #expect(DeviceScreen.iPhone430x932.displaySize(of: .accessoryInline) == DisplaySize(width: 257, height: 26))
        #expect(DeviceScreen.iPhone393x852.displaySize(of: .systemExtraLarge) == nil)
        #expect(DeviceScreen.iPad1024x1366.displaySize(of: .systemExtraLarge) == DisplaySize(width: 748, height: 356))
        #expect(DeviceScreen.iPad1024x1366.displaySize(of: .accessoryCircular) == nil)
    }

    @Test("each family's widget fits on its device's screen")
    func widgetsFitTheScreen() {
        for device in DeviceScreen.allCases {
            for family in device.families {
                let size = device.displaySize(of: family)!
                #expect(
                    size.width <= device.screenSize.width && size.height <= device.screenSize.height,
                    "\(family) on \(device)")
            }
        }
    }

    @Test("Live Activity presentation sizes follow the device (spec §6)")
    func presentationSizes() {
        #expect(DeviceScreen.iPhone393x852.maximumSize(of: .compact) == DisplaySize(width: 52.33, height: 36.67))
        #expect(DeviceScreen.iPhone430x932.maximumSize(of: .compact) == DisplaySize(width: 62.33, height: 36.67))
        #expect(DeviceScreen.iPhone375x667.maximumSize(of: .lockScreen) == nil)
        #expect(DisplaySize(width: 52.33, height: 36.67).pixels(scale: 3) == (157, 110))
    }

    @Test("families: accessory ones live on the Lock Screen; inline is the one not interactive")
    func families() {
        for family in WidgetFamily.allCases {
            #expect(family.screen == (family.isAccessory ? .lockScreen : .homeScreen))
            #expect(WidgetFamily.allCases[family.position] == family)
        }
        #expect(WidgetFamily.allCases.filter { !$0.isInteractive } == [.accessoryInline])
    }
}
