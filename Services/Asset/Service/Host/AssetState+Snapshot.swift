import EngineHosting
package import GlimpseVocabulary

/// glimpse-asset's snapshot: the catalog (see `AssetCatalog+Snapshot`) and the apps, their
/// tokens, holders and names. Blob files are not in it: they stay in the blob directory,
/// which the start reconciles with the restored catalog as after a replay.
extension AssetState: SnapshotState, SnapshotFields {
    /// Change it with anything the snapshot holds (here or in the catalog).
    package static var snapshotFormat: Int { 1 }

    package enum FieldKey: String, CodingKey, CaseIterable {
        case catalog, apps, tokens, names
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visitNested(.catalog, &catalog)
        try fields.visit(.apps, &apps)
        try fields.visit(.tokens, &tokens)
        try fields.visit(.names, &names)
    }

    package func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
    package mutating func restore(from decoder: any Decoder) throws { try restoreFields(from: decoder) }
}
