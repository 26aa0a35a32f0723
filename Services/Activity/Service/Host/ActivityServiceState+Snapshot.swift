import ActivityEngine
import DequeModule
package import EngineHosting
import GlimpseMessages
package import GlimpseVocabulary
import ServiceKit

/// glimpse-activity's snapshot: the manager (see `ActivityManager+Snapshot`: activities,
/// their timers and the deadline heap, tokens, channels, budgets) and what the service keeps
/// beside it. Manifests and push records are kept as protobuf bytes; `pushLogLimit` is the
/// run's. The push log goes to the journal's archive with each snapshot (`pushArchive`), so a
/// snapshot holds none of it; one written before (format 1 as well) held it, and restores it.
extension ActivityServiceState: SnapshotState, SnapshotFields {
    /// Change it with anything the snapshot holds (here or in the manager).
    package static var snapshotFormat: Int { 1 }

    package enum FieldKey: String, CodingKey, CaseIterable {
        case manager, apps, tokens, channels, widgetTokens, widgetTokenOfApp, retired, activityTokens
        case pushToStartTokens, pushToStartOwners, faults, nextFaultID, pushLog, pushSequence, identifiers
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visitNested(.manager, &manager)
        try fields.visit(
            .apps, &apps, saving: { $0.mapValues(SavedApp.init) },
            restoring: {
                $0.mapValues { InstalledRecord(manifest: $0.manifest, token: $0.token) }
            })
        try fields.visit(.tokens, &tokens)
        try fields.visit(.channels, &channels)
        try fields.visit(.widgetTokens, &widgetTokens)
        try fields.visit(.widgetTokenOfApp, &widgetTokenOfApp)
        try fields.visit(.retired, &retired)
        try fields.visit(.activityTokens, &activityTokens)
        try fields.visit(.pushToStartTokens, &pushToStartTokens)
        try fields.visit(.pushToStartOwners, &pushToStartOwners)
        try fields.visit(.faults, &faults)
        try fields.visit(.nextFaultID, &nextFaultID)
        try fields.visit(
            .pushLog, &pushLog, saving: { $0.map(SnapshotMessage.init) },
            restoring: {
                Deque($0.map(\.message))
            })
        try fields.visit(.pushSequence, &pushSequence)
        try fields.visit(.identifiers, &identifiers)
    }

    package func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
    package mutating func restore(from decoder: any Decoder) throws { try restoreFields(from: decoder) }
}

extension ActivityServiceState.InstalledRecord: InstalledAppRecord {}

extension ActivityServiceState {
    /// The push log as its host archives it: its records leave with each snapshot, as
    /// protobuf bytes keyed by bundle id; the archive keeps the newest `pushLogLimit`.
    package var pushArchive: SnapshotArchive<ActivityServiceState> {
        SnapshotArchive(
            keep: pushLogLimit,
            take: { state in
                let records = try state.pushLog.map { record in
                    ArchivedRecord(
                        sequence: Int64(record.sequence), key: record.bundleId, bytes: try record.serializedBytes())
                }
                state.pushLog = []
                return records
            },
            drop: { state, through in
                while let first = state.pushLog.first, first.sequence <= UInt64(through) { state.pushLog.removeFirst() }
            })
    }
}
