public import EngineHost
import GlimpseMessages
public import GlimpseVocabulary
import ServiceKit
import TimelineEngine

/// glimpse-timeline's snapshot: the scheduler (see `TimelineScheduler+Snapshot`) and all the
/// service keeps beside it. Manifests and provider errors are kept as their protobuf bytes.
extension TimelineState: SnapshotState, SnapshotFields {
    /// Change it with anything the snapshot holds (here or in the scheduler).
    public static var snapshotFormat: Int { 1 }

    public enum FieldKey: String, CodingKey {
        case scheduler, apps, tokens, nextPlacementID, lastErrors, inFlight, appliedReloads
    }

    public mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visitNested(.scheduler, &scheduler)
        try fields.visit(.apps, &apps)
        try fields.visit(.tokens, &tokens)
        try fields.visit(.nextPlacementID, &nextPlacementID)
        var errors = lastErrors.mapValues(SnapshotMessage.init)
        try fields.visit(.lastErrors, &errors)
        if fields.isRestoring { lastErrors = errors.mapValues(\.message) }
        try fields.visit(.inFlight, &inFlight)
        try fields.visit(.appliedReloads, &appliedReloads)
    }

    public func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
    public mutating func restore(from decoder: any Decoder) throws { try restoreFields(from: decoder) }
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
