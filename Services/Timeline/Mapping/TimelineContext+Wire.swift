package import GlimpseMessages
package import GlimpseVocabulary
import ProtoMapping
package import TimelineEngine

extension TimelineContext {
    /// The provider context glimpse-timeline sends for this context of `app`'s widget (also
    /// what `glimpse verify` sends): the family's size, light, vibrant on the Lock Screen, full
    /// color elsewhere.
    package func providerContext(
        of app: AppID, scale: Double = DeviceScreen.default.scale
    )
        -> GlimpseAppV1.TimelineProviderContext
    {
        var wire = GlimpseAppV1.TimelineProviderContext()
        wire.bundleId = app.rawValue
        wire.family = family.wire
        wire.displaySize = GlimpseWidgetV1.DisplaySize(displaySize)
        wire.isPreview = isPreview
        wire.configuration = configuration.mapValues(\.wire)
        wire.renderingMode = family.isAccessory ? .vibrant : .fullColor
        wire.colorScheme = .light
        wire.displayScale = scale
        return wire
    }
}
