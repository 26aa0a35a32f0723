/// When a host saves its engine's state and drops the journal entries the state covers.
///
/// A snapshot is taken after a journaled input once both hold:
/// - at least `every` inputs were journaled since the last one, and
/// - those inputs take at least as many bytes as the last snapshot did (payloads, plus
///   `entryOverhead` each), so a large state is saved less often: writing snapshots never
///   costs more than writing the journal did, and a start replays at most about a state's
///   worth of entries, or `every`, whichever is more;
///
/// and, when `atClose`, at a graceful close if anything was journaled since the last one.
/// It is taken on the host's executor between two inputs, so it is the state as of the
/// last journaled one.
package struct SnapshotPolicy: Sendable, Hashable {
    /// Inputs between snapshots; 0 takes none (the journal then keeps every entry, as
    /// before snapshots; an existing snapshot is still read).
    package var every: Int
    package var atClose: Bool

    /// What one entry costs in the journal besides its payload (its row in SQLite).
    package static var entryOverhead: Int { 32 }

    package init(every: Int = 10_000, atClose: Bool = true) {
        precondition(every >= 0, "every must not be negative")
        self.every = every
        self.atClose = atClose
    }

    /// Every 10,000 inputs (as the byte rule allows) and at close.
    package static var defaults: Self { Self() }

    /// Never: the journal grows without bound.
    package static var off: Self { Self(every: 0, atClose: false) }

    var isOn: Bool { every > 0 }
}
