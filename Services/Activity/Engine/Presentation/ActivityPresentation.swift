#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseJSON
package import GlimpseVocabulary

/// Where an activity is drawn (S12, S21; spec §6).
package enum ActivityPresentationKind: String, Sendable, Hashable, CaseIterable {
    case compactLeading, compactTrailing, minimal, expanded, lockScreen
}

/// What the Dynamic Island shows.
package enum DynamicIslandPresentation: Sendable, Hashable {
    case none
    /// One app has activities: its most relevant one, compact leading and trailing.
    case compact(ActivityID)
    /// Several apps: the two most relevant, both minimal (one attached to the camera
    /// cut-out, one detached).
    case minimal(attached: ActivityID, detached: ActivityID)
    /// Expanded, on a long press or briefly after an alerting update.
    case expanded(ActivityID, reason: ExpansionReason)
}

package enum ExpansionReason: String, Sendable, Hashable {
    case alert, longPress
}

/// The whole picture at one instant.
package struct PresentationLayout: Sendable, Hashable {
    package var dynamicIsland: DynamicIslandPresentation
    /// Top to bottom: by relevance, ties to the one started first.
    package var lockScreen: [ActivityID]
    /// When this layout changes by time alone (an alert expansion running out), if ever.
    package var validUntil: Date?
}
