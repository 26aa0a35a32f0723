#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import GlimpseMessages
public import GlimpseVocabulary
public import ServiceKit
public import TimelineEngine

/// Everything glimpse-timeline knows, as one engine the host journals and replays: the
/// scheduler, plus what the service keeps beside it (installed apps with their manifests
/// and tokens, the next placement id, each placement's last provider error).
public struct TimelineState: Engine, AppTokenIndex {
    public struct InstalledApp: Sendable, Hashable {
        public var manifest: GlimpseAppV1.AppManifest
        public var token: String
    }

    public var scheduler: TimelineScheduler
    public internal(set) var apps: [AppID: InstalledApp] = [:]
    var tokens: [String: AppID] = [:]
    var nextPlacementID: UInt64 = 1
    public internal(set) var lastErrors: [PlacementID: GlimpseTimelineV1.ProviderError] = [:]
    /// Provider calls out, by fetch id: whose answer a `ProviderAnswer` is.
    var inFlight: [UInt64: PlacementID] = [:]
    /// The request ids of the last reloads applied (`request_id`): a retried one reloads nothing again.
    var appliedReloads = RecentIDs(capacity: 10_000)

    public init(scheduler: TimelineScheduler) {
        self.scheduler = scheduler
    }

    /// The app an app token belongs to.
    public func app(forToken token: String) -> AppID? { tokens[token] }

    public mutating func nextDeadline() -> Date? { scheduler.nextDeadline() }

    public mutating func fireDue() -> [TimelineEffect] { noted(scheduler.fireDue()) }

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
