import EngineHosting
import GlimpseMessages
package import GlimpseVocabulary
import IntentEngine
import ServiceKit

/// glimpse-intent's snapshot: the executor (see `IntentExecutor+Snapshot`: the App Group
/// store, the idempotency ledger, calls out and waiting taps) and what the service keeps
/// beside it, the outbox of reloads included. Manifests are kept as their protobuf bytes.
extension IntentState: SnapshotState, SnapshotFields {
    /// Change it with anything the snapshot holds (here or in the executor).
    package static var snapshotFormat: Int { 1 }

    package enum FieldKey: String, CodingKey, CaseIterable {
        case executor, apps, tokens, pendingHandlerKeys, callKeys, outbox, nextOutboxID
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visitNested(.executor, &executor)
        try fields.visit(
            .apps, &apps, saving: { $0.mapValues(SavedApp.init) },
            restoring: {
                $0.mapValues { RegisteredApp(manifest: $0.manifest, token: $0.token) }
            })
        try fields.visit(.tokens, &tokens)
        try fields.visit(.pendingHandlerKeys, &pendingHandlerKeys)
        try fields.visit(.callKeys, &callKeys)
        try fields.visit(.outbox, &outbox)
        try fields.visit(.nextOutboxID, &nextOutboxID)
    }

    package func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
    package mutating func restore(from decoder: any Decoder) throws { try restoreFields(from: decoder) }
}

extension IntentState.RegisteredApp: InstalledAppRecord {}
