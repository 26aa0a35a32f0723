package import GlimpseVocabulary

/// The catalog's state for a snapshot: names, blobs, recency, pins and the byte budget in
/// force (journaled: `byteBudget` commands change it). The clock and the other limits are
/// the run's.
extension AssetCatalog: SnapshotFields {
    package enum FieldKey: String, CodingKey, CaseIterable {
        case byteBudget, names, blobs, lru, pins, pinCounts, usedBytes
    }

    package mutating func snapshotFields(_ fields: inout some SnapshotFieldVisitor<FieldKey>) throws {
        try fields.visit(.byteBudget, &limits.byteBudget)
        try fields.visit(.names, &names)
        try fields.visit(.blobs, &blobs)
        try fields.visit(.lru, &lru)
        try fields.visit(.pins, &pins)
        try fields.visit(.pinCounts, &pinCounts)
        try fields.visit(.usedBytes, &usedBytes)
    }
}
