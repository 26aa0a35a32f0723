package import GlimpseVocabulary

/// An engine whose state its host can save as of a journal position and start from, so a
/// start restores the state and replays only the entries after it (O(state), not O(history)).
///
/// Requirements:
/// - `encode(to:)` writes everything replay would rebuild: what the engine's calls, answers,
///   effects and deadlines depend on, down to internal order (heaps, queues, counters). It
///   leaves out what a start gives the engine (the clock, settings from flags).
/// - `restore(from:)` runs on a fresh engine, made as for replay, and makes it the engine
///   that was saved: from there it must act exactly as the saved one would have.
/// - `snapshotFormat` changes whenever the bytes `encode(to:)` writes change meaning. A host
///   reads only snapshots of the format it knows (see `EngineHost`).
package protocol SnapshotState: Engine, Encodable {
    static var snapshotFormat: Int { get }
    mutating func restore(from decoder: any Decoder) throws
}

/// How a host saves and restores its engine, made from a `SnapshotState` (or by hand in tests).
package struct Snapshotting<E: Engine>: Sendable {
    package var format: Int
    package var policy: SnapshotPolicy
    package var encode: @Sendable (E) throws -> [UInt8]
    package var restore: @Sendable (inout E, [UInt8]) throws -> Void
    /// Told when a snapshot fails (the host serves on; the journal keeps its entries).
    package var report: @Sendable (String) -> Void
    /// Snapshots the policy takes are encoded and written away from the host's executor,
    /// from a copy of the engine, while the host goes on taking inputs (a large state no
    /// longer stalls them). Only for an engine that is a value all through: no class instance
    /// in it that the host goes on changing, or the copy would not be the state it was.
    package var encodesAside = false
    /// A log whose records go to the journal's archive with each snapshot instead of into it.
    package var archive: SnapshotArchive<E>?

    package init(
        format: Int, policy: SnapshotPolicy,
        encode: @escaping @Sendable (E) throws -> [UInt8],
        restore: @escaping @Sendable (inout E, [UInt8]) throws -> Void,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.format = format
        self.policy = policy
        self.encode = encode
        self.restore = restore
        self.report = report
    }
}

extension Snapshotting where E: SnapshotState {
    /// The engine's own encoding, in the snapshot format (`SnapshotEncoder`).
    package init(policy: SnapshotPolicy, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(
            format: E.snapshotFormat, policy: policy,
            encode: { engine in try SnapshotEncoder().encode(engine) },
            restore: { engine, bytes in try SnapshotDecoder().read(bytes) { try engine.restore(from: $0) } },
            report: report)
    }
}
