package import GlimpseVocabulary

/// What an asset is for, which decides its image limit (spec §7).
package enum AssetUse: Sendable, Hashable, Codable {
    /// A widget image: its pixel area is capped (F10: 718,080).
    case widget
    /// A Live Activity image for one presentation: no larger than it (S12).
    case liveActivity(LiveActivityPresentation)
}
