#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import GlimpseJSON
import GlimpseVocabulary

/// ActivityKit's `ActivityUIDismissalPolicy` (S15): how long an ended activity stays
/// on the Lock Screen.
package enum DismissalPolicy: Sendable, Hashable {
    /// The system's choice, up to the retention limit (4 h) after the end.
    case `default`
    /// Removed at once: the activity goes straight to `dismissed`.
    case immediate
    /// Removed at `date`, but never later than the end plus the retention limit;
    /// a date not after the end means immediate.
    case after(Date)

    /// When an activity ended at `endedAt` is dismissed, given the retention cap.
    package func dismissalDate(endedAt: Date, retention: TimeInterval) -> Date {
        let cap = endedAt.addingTimeInterval(retention)
        switch self {
        case .default: return cap
        case .immediate: return endedAt
        case .after(let date): return max(endedAt, min(date, cap))
        }
    }
}
