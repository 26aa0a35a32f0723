import GlimpseJSON
import GlimpseVocabulary
/// ActivityKit's `ActivityState` (S16).
///
/// `pending` (iOS 26 scheduled start) → `active` ⇄ `stale` (at the stale date; a
/// newer update with a later or no stale date makes it active again) → `ended`
/// (still on the Lock Screen, takes no updates) → `dismissed` (removed).
package enum ActivityState: String, Sendable, Hashable, CaseIterable, Codable {
    case pending
    case active
    case stale
    case ended
    case dismissed

    /// Counts toward the per-app and per-device concurrency caps (spec §4: a
    /// scheduled, pending activity counts toward the limit).
    package var countsTowardLimit: Bool { self == .pending || self == .active || self == .stale }

    /// Takes updates (and ends).
    package var isOngoing: Bool { countsTowardLimit }

    /// Shown in the Dynamic Island (ended activities are removed from it at once, S12).
    package var isInDynamicIsland: Bool { self == .active || self == .stale }

    /// Shown on the Lock Screen (ended ones stay until dismissed).
    package var isOnLockScreen: Bool { self == .active || self == .stale || self == .ended }
}
