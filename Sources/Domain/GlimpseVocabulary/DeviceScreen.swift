/// A size in points, as `TimelineProviderContext.displaySize` reports a widget's.
package struct DisplaySize: Sendable, Hashable, Codable {
    package var width: Double
    package var height: Double

    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The size in whole pixels at `scale`, to the nearest pixel (36.67 pt × 3 = 110 px).
    package func pixels(scale: Double) -> (width: Int, height: Int) {
        (Int((width * scale).rounded()), Int((height * scale).rounded()))
    }
}

/// Live Activity presentations with distinct sizes (spec §6).
package enum LiveActivityPresentation: String, Sendable, Hashable, CaseIterable, Codable {
    case minimal, compact, expanded, lockScreen
}

/// The device model: its screen, the widget sizes it gives each family (spec §2) and the
/// largest size of each Live Activity presentation (spec §6). Every engine and service
/// takes its sizes from here, so one setting changes them all.
///
/// The default is the 393×852 iPhone. `systemExtraLarge` has a size only on the iPad
/// screen: the spec says it is "not on iPhone", so a placement in that family on an
/// iPhone screen is refused rather than given an invented size.
package enum DeviceScreen: String, CaseIterable, Sendable, Hashable, Codable {
    /// 430×932 and 428×926 points (Pro Max, Plus, Air).
    case iPhone430x932
    /// 393×852 and 390×844 points (the default).
    case iPhone393x852
    /// 375×812 points.
    case iPhone375x812
    /// 375×667 points.
    case iPhone375x667
    /// The 1024×1366 iPad: the only screen with `systemExtraLarge` and no accessory sizes in the table.
    case iPad1024x1366

    /// The device every engine assumes unless told otherwise.
    package static let `default` = DeviceScreen.iPhone393x852

    /// The screen in points.
    package var screenSize: DisplaySize {
        switch self {
        case .iPhone430x932: DisplaySize(width: 430, height: 932)
        case .iPhone393x852: DisplaySize(width: 393, height: 852)
        case .iPhone375x812: DisplaySize(width: 375, height: 812)
        case .iPhone375x667: DisplaySize(width: 375, height: 667)
        case .iPad1024x1366: DisplaySize(width: 1024, height: 1366)
        }
    }

    /// Pixels per point (3× on the iPhones of the table, 2× on the iPad).
    package var scale: Double { self == .iPad1024x1366 ? 2 : 3 }

    /// The point size of `family` on this screen, or nil when the family does not exist here.
    package func displaySize(of family: WidgetFamily) -> DisplaySize? {
        guard let (w, h) = Self.widgetSizes[self]?[family] else { return nil }
        return DisplaySize(width: w, height: h)
    }

    /// Families this screen can show.
    package var families: Set<WidgetFamily> {
        Set(WidgetFamily.allCases.filter { displaySize(of: $0) != nil })
    }

    /// The largest size of a Live Activity presentation here (the upper end of the spec's
    /// ranges); nil where the spec's table gives none for this screen.
    package func maximumSize(of presentation: LiveActivityPresentation) -> DisplaySize? {
        guard let (w, h) = Self.presentationSizes[self]?[presentation] else { return nil }
        return DisplaySize(width: w, height: h)
    }

    private static let widgetSizes: [DeviceScreen: [WidgetFamily: (Double, Double)]] = [
        .iPhone430x932: [
            .systemSmall: (170, 170), .systemMedium: (364, 170), .systemLarge: (364, 382),
            .accessoryCircular: (76, 76), .accessoryRectangular: (172, 76), .accessoryInline: (257, 26),
        ],
        .iPhone393x852: [
            .systemSmall: (158, 158), .systemMedium: (338, 158), .systemLarge: (338, 354),
            .accessoryCircular: (72, 72), .accessoryRectangular: (160, 72), .accessoryInline: (234, 26),
        ],
        .iPhone375x812: [
            .systemSmall: (155, 155), .systemMedium: (329, 155), .systemLarge: (329, 345),
            .accessoryCircular: (72, 72), .accessoryRectangular: (157, 72), .accessoryInline: (225, 26),
        ],
        .iPhone375x667: [
            .systemSmall: (148, 148), .systemMedium: (321, 148), .systemLarge: (321, 324),
            .accessoryCircular: (68, 68), .accessoryRectangular: (153, 68), .accessoryInline: (225, 26),
        ],
        // The spec gives no accessory sizes for iPad, so none are invented here.
        .iPad1024x1366: [
            .systemSmall: (160, 160), .systemMedium: (356, 160), .systemLarge: (356, 356),
            .systemExtraLarge: (748, 356),
        ],
    ]

    /// Spec §6: compact is one side (leading or trailing); minimal's width range is 36.67–45.
    private static let presentationSizes: [DeviceScreen: [LiveActivityPresentation: (Double, Double)]] = [
        .iPhone430x932: [
            .minimal: (45, 36.67), .compact: (62.33, 36.67), .expanded: (408, 160), .lockScreen: (408, 160),
        ],
        .iPhone393x852: [
            .minimal: (45, 36.67), .compact: (52.33, 36.67), .expanded: (371, 160), .lockScreen: (371, 160),
        ],
    ]
}
