#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseMessages
package import GlimpseVocabulary
import ServiceKit
package import TimelineEngine

/// Everything glimpse-timeline knows, as one engine the host journals and replays: the
/// scheduler, plus what the service keeps beside it (installed apps with their manifests
/// and tokens, the next placement id, each placement's last provider error).
package struct TimelineState: Engine, AppTokenIndex {
    package struct InstalledApp: Sendable, Hashable {
        package var manifest: GlimpseAppV1.AppManifest
        package var token: String
    }

    package var scheduler: TimelineScheduler
    package internal(set) var apps: [AppID: InstalledApp] = [:]
    var tokens: [String: AppID] = [:]
    var nextPlacementID: UInt64 = 1
    package internal(set) var lastErrors: [PlacementID: GlimpseTimelineV1.ProviderError] = [:]
    /// Provider calls out, by fetch id: whose answer a `ProviderAnswer` is.
    var inFlight: [UInt64: PlacementID] = [:]
    /// The request ids of the last reloads applied (`request_id`): a retried one reloads nothing again.
    var appliedReloads = RecentIDs(capacity: 10_000)

    package init(scheduler: TimelineScheduler) {
        self.scheduler = scheduler
    }

    /// The app an app token belongs to.
    package func app(forToken token: String) -> AppID? { tokens[token] }

    package mutating func nextDeadline() -> Date? { scheduler.nextDeadline() }

    package mutating func fireDue() -> [TimelineEffect] { noted(scheduler.fireDue()) }

    /// Keeps the calls out in step with the effects that start and abandon them.
    mutating func noted(_ effects: [TimelineEffect]) -> [TimelineEffect] {
        for effect in effects {
            switch effect {
            case .fetchTimeline(let request): inFlight[request.id.rawValue] = request.placement
            case .cancelFetch(let id): inFlight[id.rawValue] = nil
            default: break
            }
        }
        return effects
    }
}
