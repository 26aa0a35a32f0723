/// How a journal stores its writes.
package struct JournalSettings: Sendable {
    /// What an acknowledged write survives.
    package enum Durability: Sendable, Equatable {
        /// WAL with `synchronous = NORMAL`: a commit is in the WAL file (the OS page cache)
        /// before it returns, so it survives kill -9 and any crash of the process; power
        /// loss or a kernel panic may roll back the last commits (never corrupt the file).
        case processCrash
        /// WAL with `synchronous = FULL`: each commit is fsynced to the WAL file; survives
        /// power loss too, at one fsync (often milliseconds) per input.
        case powerLoss
    }

    /// Default `.processCrash`: the architecture asks that an acknowledged write survive
    /// kill -9, which NORMAL gives without an fsync per input; a service whose inputs
    /// must survive power loss sets `.powerLoss`.
    package var durability: Durability

    package init(durability: Durability = .processCrash) {
        self.durability = durability
    }

    package static var defaults: Self { Self() }
}
