package import Foundation
package import GlimpseMessages
package import GlimpseVocabulary

/// An app's asset, addressed as glimpse-asset addresses it: the app and the asset's name.
package struct AssetKey: Hashable, Sendable {
    package var bundleID: String
    package var name: String

    package init(bundleID: String, name: String) {
        self.bundleID = bundleID
        self.name = name
    }

    /// How a layout node names its asset: `bundle/name` (a bundle id has no `/`), or the
    /// bare name when the bundle is unknown.
    package var nodeName: String { bundleID.isEmpty ? name : "\(bundleID)/\(name)" }

    /// Reads `nodeName` back.
    package init(nodeName: String) {
        if let slash = nodeName.firstIndex(of: "/") {
            self.init(bundleID: String(nodeName[..<slash]), name: String(nodeName[nodeName.index(after: slash)...]))
        } else {
            self.init(bundleID: "", name: nodeName)
        }
    }
}

/// What the renderer knows of an image: its pixel size (its natural point size is pixels /
/// the device scale) and, for the SVG output's `data:` URLs, its bytes.
package struct AssetImage: Sendable {
    package var pixelWidth: Int
    package var pixelHeight: Int
    package var mediaType: String
    package var data: [UInt8]?

    package init(pixelWidth: Int, pixelHeight: Int, mediaType: String = "image/png", data: [UInt8]? = nil) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.mediaType = mediaType
        self.data = data
    }
}

/// Everything outside the view tree that changes what a view shows: the device and its
/// clock, the appearance, the time zone of dates, and the app's images.
package struct RenderEnvironment: Sendable {
    package var device: DeviceScreen
    /// The device clock: timers, dates, progress by interval, staleness.
    package var now: Date
    package var colorScheme: GlimpseAppV1.ColorScheme
    package var timeZone: TimeZone
    package var assets: [AssetKey: AssetImage]
    /// The device is locked: privacy-sensitive views (`.privacySensitive()`) are drawn
    /// redacted, as iOS draws them (`redactionReasons` contains `.privacy`).
    package var locked: Bool

    package init(
        device: DeviceScreen = .default,
        now: Date,
        colorScheme: GlimpseAppV1.ColorScheme = .light,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        assets: [AssetKey: AssetImage] = [:],
        locked: Bool = false
    ) {
        self.device = device
        self.now = now
        self.colorScheme = colorScheme
        self.timeZone = timeZone
        self.assets = assets
        self.locked = locked
    }

    /// Unspecified is light.
    var isDark: Bool { colorScheme == .dark }
}

/// The four places a Live Activity shows (spec §6).
package enum ActivityPresentationKind: String, Sendable, CaseIterable {
    case lockScreen, compact, minimal, expanded
}
