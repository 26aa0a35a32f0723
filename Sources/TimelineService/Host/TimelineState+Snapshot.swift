public import EngineHost
import GlimpseMessages
import GlimpseVocabulary
import ServiceKit
import TimelineEngine

/// glimpse-timeline's snapshot: the scheduler (see `TimelineScheduler+Snapshot`) and all the
/// service keeps beside it. Manifests and provider errors are kept as their protobuf bytes.
extension TimelineState: SnapshotState {
    /// Change it with anything the snapshot holds (here or in the scheduler).
    public static var snapshotFormat: Int { 1 }

    enum CodingKeys: String, CodingKey {
        case scheduler, apps, tokens, nextPlacementID, lastErrors, inFlight, appliedReloads
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scheduler, forKey: .scheduler)
        try container.encode(apps, forKey: .apps)
        try container.encode(tokens, forKey: .tokens)
        try container.encode(nextPlacementID, forKey: .nextPlacementID)
        try container.encode(lastErrors.mapValues(SnapshotMessage.init), forKey: .lastErrors)
        try container.encode(inFlight, forKey: .inFlight)
        try container.encode(appliedReloads, forKey: .appliedReloads)
    }

    public mutating func restore(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try scheduler.restore(from: try container.superDecoder(forKey: .scheduler))
        apps = try container.decode([AppID: InstalledApp].self, forKey: .apps)
        tokens = try container.decode([String: AppID].self, forKey: .tokens)
        nextPlacementID = try container.decode(UInt64.self, forKey: .nextPlacementID)
        lastErrors = try container.decode(
            [PlacementID: SnapshotMessage<GlimpseTimelineV1.ProviderError>].self, forKey: .lastErrors).mapValues(\.message)
        inFlight = try container.decode([UInt64: PlacementID].self, forKey: .inFlight)
        appliedReloads = try container.decode(RecentIDs.self, forKey: .appliedReloads)
    }
}

extension TimelineState.InstalledApp: Codable {
    enum CodingKeys: String, CodingKey {
        case manifest, token
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        manifest = try container.decode(SnapshotMessage<GlimpseAppV1.AppManifest>.self, forKey: .manifest).message
        token = try container.decode(String.self, forKey: .token)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SnapshotMessage(manifest), forKey: .manifest)
        try container.encode(token, forKey: .token)
    }
}
