/// A widget's size in points, as `TimelineProviderContext.displaySize` reports it.
public struct DisplaySize: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// The device screen whose widget sizes the provider context reports (spec §2, HIG table).
///
/// The default is the 393×852 iPhone. `systemExtraLarge` has a size only on the iPad
/// screen: the spec says it is "not on iPhone", so a placement in that family on an
/// iPhone screen is refused rather than given an invented size.
public enum DeviceScreen: String, CaseIterable, Sendable, Hashable, Codable {
    /// 430×932 and 428×926 points.
    case iPhone430x932
    /// 393×852 and 390×844 points (the default).
    case iPhone393x852
    /// 375×812 points.
    case iPhone375x812
    /// 375×667 points.
    case iPhone375x667
    /// The 1024×1366 iPad: the only screen with `systemExtraLarge` and no accessory sizes in the table.
    case iPad1024x1366

    /// The point size of `family` on this screen, or nil when the family does not exist here.
    public func displaySize(of family: WidgetFamily) -> DisplaySize? {
        guard let (w, h) = Self.table[self]?[family] else { return nil }
        return DisplaySize(width: w, height: h)
    }

    /// Families this screen can show.
    public var families: Set<WidgetFamily> {
        Set(WidgetFamily.allCases.filter { displaySize(of: $0) != nil })
    }

    private static let table: [DeviceScreen: [WidgetFamily: (Double, Double)]] = [
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
}
