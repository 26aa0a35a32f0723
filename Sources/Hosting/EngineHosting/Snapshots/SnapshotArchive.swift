package import GlimpseVocabulary

/// A log an engine keeps (glimpse-activity's push log) that would make every snapshot as
/// large as the log: with each snapshot its records go to the journal's archive table, in the
/// snapshot's transaction, and leave the engine, so memory and snapshots hold only what came
/// since the last one. Readers page the archive (`Journal.archived`) and the engine together.
///
/// Invariants:
/// - `take` empties the log of the copy a snapshot is encoded from, so the snapshot holds
///   none of it; the records it returned are stored with the snapshot or not at all.
/// - Once stored, `drop` removes them from the live engine (those through the last one's
///   sequence): until then both hold them, and a reader keeps one of each sequence.
/// - Replay after a start rebuilds the records of the inputs after the snapshot, as before.
package struct SnapshotArchive<E: Engine>: Sendable {
    /// How many records the archive keeps, the newest; older ones go as new ones come.
    package var keep: Int
    /// Moves the log's records out of the engine (a copy), oldest first.
    package var take: @Sendable (inout E) throws -> [ArchivedRecord]
    /// Drops the records through a sequence from the engine: they are in the archive.
    package var drop: @Sendable (inout E, Int64) -> Void

    package init(
        keep: Int, take: @escaping @Sendable (inout E) throws -> [ArchivedRecord],
        drop: @escaping @Sendable (inout E, Int64) -> Void
    ) {
        precondition(keep > 0, "an archive keeps at least one record")
        self.keep = keep
        self.take = take
        self.drop = drop
    }
}

/// One record of an archived log: its sequence in the log, the key readers filter on (an
/// app's bundle id), and its bytes.
package struct ArchivedRecord: Sendable, Hashable {
    package var sequence: Int64
    package var key: String
    package var bytes: [UInt8]

    package init(sequence: Int64, key: String, bytes: [UInt8]) {
        self.sequence = sequence
        self.key = key
        self.bytes = bytes
    }
}
