/// The asset engine's settings. Sourced numbers are defaults as given; the rest are
/// Glimpse's stated choices.
public struct AssetLimits: Sendable, Hashable {
    /// Largest widget image area in pixels (F10: "max[718080]"; per family UNCONFIRMED).
    public var widgetMaximumArea: Int
    /// Largest Live Activity image per screen class and presentation, in points
    /// (spec §6 table; the upper end of each range).
    public var presentationSizes: [ScreenClass: [LiveActivityPresentation: PointSize]]
    /// The device's screen class.
    public var screen: ScreenClass
    /// Pixels per point (3× on the phones of the table).
    public var scale: Double
    /// Largest single asset in bytes (Glimpse's choice: 10 MiB; Apple publishes none).
    public var maximumAssetBytes: Int
    /// The store's byte budget; least recently used unpinned blobs are evicted past it
    /// (Glimpse's choice: 256 MiB).
    public var byteBudget: Int
    /// Longest name in UTF-8 bytes.
    public var maximumNameLength: Int
    /// How far into a JPEG to look for its frame header (EXIF can be up to 64 KiB).
    public var headerSniffLimit: Int
    /// Default chunk size for streamed reads.
    public var readChunkSize: Int

    public static let specPresentationSizes: [ScreenClass: [LiveActivityPresentation: PointSize]] = [
        .width430: [
            .minimal: PointSize(width: 45, height: 36.67),
            .compact: PointSize(width: 62.33, height: 36.67),
            .expanded: PointSize(width: 408, height: 160),
            .lockScreen: PointSize(width: 408, height: 160),
        ],
        .width393: [
            .minimal: PointSize(width: 45, height: 36.67),
            .compact: PointSize(width: 52.33, height: 36.67),
            .expanded: PointSize(width: 371, height: 160),
            .lockScreen: PointSize(width: 371, height: 160),
        ],
    ]

    public init(
        widgetMaximumArea: Int = 718_080,
        presentationSizes: [ScreenClass: [LiveActivityPresentation: PointSize]] = AssetLimits.specPresentationSizes,
        screen: ScreenClass = .width430,
        scale: Double = 3,
        maximumAssetBytes: Int = 10 << 20,
        byteBudget: Int = 256 << 20,
        maximumNameLength: Int = AssetName.defaultMaximumLength,
        headerSniffLimit: Int = 256 << 10,
        readChunkSize: Int = 64 << 10
    ) {
        self.widgetMaximumArea = widgetMaximumArea
        self.presentationSizes = presentationSizes
        self.screen = screen
        self.scale = scale
        self.maximumAssetBytes = maximumAssetBytes
        self.byteBudget = byteBudget
        self.maximumNameLength = maximumNameLength
        self.headerSniffLimit = headerSniffLimit
        self.readChunkSize = readChunkSize
    }

    public static var defaults: Self { Self() }

    /// The largest pixel size for a Live Activity presentation on this device.
    public func maximumPixels(for presentation: LiveActivityPresentation) -> (width: Int, height: Int)? {
        presentationSizes[screen]?[presentation]?.pixels(scale: scale)
    }

    /// Nil when `image` is allowed for `use`, else the refusal.
    public func violation(of image: ImageInfo, for use: AssetUse) -> AssetError? {
        switch use {
        case .widget:
            guard image.area <= widgetMaximumArea else {
                return .imageAreaTooLarge(width: image.width, height: image.height, limit: widgetMaximumArea)
            }
        case .liveActivity(let presentation):
            guard let max = maximumPixels(for: presentation) else { return nil }
            guard image.width <= max.width, image.height <= max.height else {
                return .imageLargerThanPresentation(presentation, width: image.width, height: image.height,
                                                    maxWidth: max.width, maxHeight: max.height)
            }
        }
        return nil
    }
}
