import EngineHosting
import GlimpseMessages
package import GlimpseVocabulary
import ServiceKit
import TimelineEngine

/// glimpse-timeline's snapshot: the scheduler (see `TimelineScheduler+Snapshot`) and all the
/// service keeps beside it. Manifests and provider errors are kept as their protobuf bytes.
extension TimelineState: SnapshotState, SnapshotFields {
    /// Change it with anything the snapshot holds (here or in the scheduler).
    package static var snapshotFormat: Int { 1 }

    package enum FieldKey: String, CodingKey, CaseIterable {
        case scheduler, apps, tokens, nextPlacementID, lastErrors, inFlight, appliedReloads
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visitNested(.scheduler, &scheduler)
        try fields.visit(
            .apps, &apps, saving: { $0.mapValues(SavedApp.init) },
            restoring: {
                $0.mapValues { InstalledApp(manifest: $0.manifest, token: $0.token) }
            })
        try fields.visit(.tokens, &tokens)
        try fields.visit(.nextPlacementID, &nextPlacementID)
        try fields.visit(
            .lastErrors, &lastErrors, saving: { $0.mapValues(SnapshotMessage.init) },
            restoring: {
                $0.mapValues(\.message)
            })
        try fields.visit(.inFlight, &inFlight)
        try fields.visit(.appliedReloads, &appliedReloads)
    }

    package func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
    package mutating func restore(from decoder: any Decoder) throws { try restoreFields(from: decoder) }
}

extension TimelineState.InstalledApp: InstalledAppRecord {}
