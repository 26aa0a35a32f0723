package import GlimpseVocabulary

/// The asset engine's settings. Sourced numbers are defaults as given; the rest are
/// Glimpse's stated choices.
package struct AssetLimits: Sendable, Hashable {
    /// Largest widget image area in pixels (F10: "max[718080]"; per family UNCONFIRMED).
    package var widgetMaximumArea: Int
    /// The device whose Live Activity presentation sizes (spec §6) and pixel scale cap
    /// Live Activity images: the one device model every engine shares.
    package var device: DeviceScreen
    /// Largest single asset in bytes (Glimpse's choice: 10 MiB; Apple publishes none).
    package var maximumAssetBytes: Int
    /// The store's byte budget; least recently used unpinned blobs are evicted past it
    /// (Glimpse's choice: 256 MiB).
    package var byteBudget: Int
    /// Longest name in UTF-8 bytes.
    package var maximumNameLength: Int
    /// How far into a JPEG to look for its frame header (EXIF can be up to 64 KiB).
    package var headerSniffLimit: Int
    /// Default chunk size for streamed reads.
    package var readChunkSize: Int

    package init(
        widgetMaximumArea: Int = 718_080,
        device: DeviceScreen = .default,
        maximumAssetBytes: Int = 10 << 20,
        byteBudget: Int = 256 << 20,
        maximumNameLength: Int = AssetName.defaultMaximumLength,
        headerSniffLimit: Int = 256 << 10,
        readChunkSize: Int = 64 << 10
    ) {
        self.widgetMaximumArea = widgetMaximumArea
        self.device = device
        self.maximumAssetBytes = maximumAssetBytes
        self.byteBudget = byteBudget
        self.maximumNameLength = maximumNameLength
        self.headerSniffLimit = headerSniffLimit
        self.readChunkSize = readChunkSize
    }

    package static var defaults: Self { Self() }

    /// The largest pixel size for a Live Activity presentation on this device; nil where
    /// the spec gives no size for it (no limit is invented).
    package func maximumPixels(for presentation: LiveActivityPresentation) -> (width: Int, height: Int)? {
        device.maximumSize(of: presentation)?.pixels(scale: device.scale)
    }

    /// Nil when `image` is allowed for `use`, else the refusal.
    package func violation(of image: ImageInfo, for use: AssetUse) -> AssetError? {
        switch use {
        case .widget:
            guard image.area <= widgetMaximumArea else {
                return .imageAreaTooLarge(width: image.width, height: image.height, limit: widgetMaximumArea)
            }
        case .liveActivity(let presentation):
            guard let max = maximumPixels(for: presentation) else { return nil }
            guard image.width <= max.width, image.height <= max.height else {
                return .imageLargerThanPresentation(
                    presentation, width: image.width, height: image.height,
                    maxWidth: max.width, maxHeight: max.height)
            }
        }
        return nil
    }
}
