#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseVocabulary

/// Snapshots: the engine's state as of a journal entry, stored with the deletion of the
/// entries up to it, so a start restores O(state) and replays only what came after.
///
/// Crash safety: a snapshot is encoded from the engine between two inputs (the actor runs
/// nothing else meanwhile), so it is exactly the state after entry `lastSequence`; the
/// snapshot row and the deletion of entries ≤ that sequence commit in one SQLite
/// transaction. A kill at any point leaves the previous snapshot and all entries after it,
/// or the new one and all entries after it; either restores the same engine.
///
/// Formats: a start reads only a snapshot of the engine's own `snapshotFormat`. A snapshot
/// it cannot read (another format, or bytes that do not decode) is set aside when the journal
/// still holds every entry since the first (then it replays them all, as before snapshots);
/// otherwise the start fails with `EngineHostError.snapshotUnreadable`, naming the file.
extension EngineHost {
    /// How a host started.
    package struct Opening: Sendable, Equatable, CustomStringConvertible {
        /// The sequence of the snapshot restored; nil when the start replayed from the first entry.
        package var restored: Int64?
        /// Journal entries replayed after it.
        package var replayed: Int
        /// Why a snapshot in the journal was not used (the journal was complete without it).
        package var setAside: String?

        package var description: String {
            let start =
                restored.map { "restored the snapshot at journal entry \($0), then replayed \(replayed) entries" }
                ?? "replayed \(replayed) journal entries"
            return start + (setAside.map { " (a snapshot was set aside: \($0))" } ?? "")
        }
    }

    struct Opened {
        var engine: E
        var opening = Opening(restored: nil, replayed: 0, setAside: nil)
        var lastSequence: Int64 = 0
        var lastInstant: Date?
        var growth = JournalGrowth()
        var snapshotBytes = 0
    }

    static func open(
        _ engine: E, clock: HostClock, journal: Journal, snapshotting: Snapshotting<E>?, apply: Apply
    ) throws -> Opened {
        var opened = Opened(engine: engine)
        if let saved = try journal.latestSnapshot() {
            do {
                opened.engine = try restore(saved, into: engine, snapshotting: snapshotting)
                // Restoring reads no clock; the clock then resumes no earlier than the state.
                clock.pin(saved.instant)
                clock.unpin()
                opened.opening.restored = saved.sequence
                opened.lastSequence = saved.sequence
                opened.lastInstant = saved.instant
                opened.snapshotBytes = saved.state.count
            } catch {
                guard try journal.isComplete(through: saved.sequence) else {
                    throw EngineHostError.snapshotUnreadable(
                        path: journal.path ?? ":memory:", sequence: saved.sequence, reason: String(describing: error))
                }
                opened.opening.setAside = String(describing: error)
            }
        }
        try journal.forEach(after: opened.opening.restored ?? 0) { entry in
            clock.pin(entry.instant)
            defer { clock.unpin() }
            switch entry.kind {
            case .command:
                do {
                    _ = try apply(&opened.engine, try C.decode(entry.payload))
                } catch {
                    throw EngineHostError.replayDiverged(sequence: entry.sequence)
                }
            case .fireDue:
                _ = opened.engine.fireDue()
            }
            opened.lastSequence = entry.sequence
            opened.lastInstant = entry.instant
            opened.opening.replayed += 1
            opened.growth.add(payloadBytes: entry.payload.count)
        }
        return opened
    }

    private static func restore(_ saved: JournalSnapshot, into fresh: E, snapshotting: Snapshotting<E>?) throws -> E {
        guard let snapshotting else { throw SnapshotMismatch(reason: "this engine keeps no snapshots") }
        guard saved.format == snapshotting.format else {
            throw SnapshotMismatch(
                reason: "it has format \(saved.format) and this build reads format \(snapshotting.format)")
        }
        var engine = fresh
        try snapshotting.restore(&engine, saved.state)
        return engine
    }

    struct SnapshotMismatch: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// Counts what was journaled and takes a snapshot when the policy says it is time.
    /// Called right after the journal commit, before anything else runs on the host.
    func journaled(_ growth: JournalGrowth, at instant: Date) {
        lastInstant = instant
        sinceSnapshot.inputs += growth.inputs
        sinceSnapshot.bytes += growth.bytes
        guard let snapshotting, snapshotting.policy.isOn, sinceSnapshot.inputs >= snapshotting.policy.every,
            sinceSnapshot.bytes >= lastSnapshotBytes
        else { return }
        if snapshotting.encodesAside {
            takeSnapshotAside(snapshotting)
        } else {
            takeSnapshot()
        }
    }

    /// Starts encoding and writing a snapshot of the engine as of `lastSequence` from a copy,
    /// away from the host; one at a time (the next waits for another `every` inputs after it).
    /// The entries journaled meanwhile stay: the write deletes only those up to the copy's.
    func takeSnapshotAside(_ snapshotting: Snapshotting<E>) {
        guard snapshotAside == nil, let instant = lastInstant, lastSequence > 0 else { return }
        let copy = engine
        let sequence = lastSequence
        let journal = journal
        sinceSnapshot = JournalGrowth()
        snapshotAside = Task.detached(priority: .utility) {
            let written: Result<Written, any Error>
            do {
                written = .success(try Self.write(copy, as: sequence, at: instant, into: journal, snapshotting))
            } catch {
                written = .failure(error)
            }
            var spaceFailure: (any Error)?
            if case .success(let result) = written, result.stored {
                do { try journal.releaseFreePages() } catch { spaceFailure = error }
            }
            await self.snapshotAsideWritten(sequence, written, spaceFailure: spaceFailure)
        }
    }

    /// What writing a snapshot did: whether it was stored, its size, the last record archived.
    struct Written: Sendable {
        var stored: Bool
        var bytes: Int
        var archivedThrough: Int64?
    }

    /// Encodes `engine` (a copy; its archived log is taken out first) and stores it with
    /// the log's records, as of entry `sequence`.
    private static func write(
        _ engine: E, as sequence: Int64, at instant: Date, into journal: Journal, _ snapshotting: Snapshotting<E>
    ) throws -> Written {
        var copy = engine
        let records = try snapshotting.archive?.take(&copy) ?? []
        let state = try snapshotting.encode(copy)
        let stored = try journal.writeSnapshot(
            JournalSnapshot(sequence: sequence, instant: instant, format: snapshotting.format, state: state),
            archiving: records, keep: snapshotting.archive?.keep ?? 0)
        return Written(stored: stored, bytes: state.count, archivedThrough: stored ? records.last?.sequence : nil)
    }

    /// The records a stored snapshot archived leave the engine.
    private func archived(_ written: Written) {
        guard let through = written.archivedThrough, let archive = snapshotting?.archive else { return }
        archive.drop(&engine, through)
    }

    private func snapshotAsideWritten(
        _ sequence: Int64, _ written: Result<Written, any Error>, spaceFailure: (any Error)?
    ) {
        snapshotAside = nil
        // After `close` the journal refuses writes, and the last snapshot is close's own.
        guard !closed, let snapshotting else { return }
        switch written {
        case .success(let result):
            snapshotFailure = nil
            guard result.stored else { return }
            archived(result)
            lastSnapshotBytes = result.bytes
            snapshotsTaken += 1
            if let spaceFailure {
                snapshotting.report(
                    "the snapshot at journal entry \(sequence) is saved; giving its dropped entries' space back failed: \(spaceFailure)"
                )
            }
        case .failure(let error):
            snapshotFailure = String(describing: error)
            snapshotting.report(
                "the snapshot at journal entry \(sequence) failed (the journal keeps its entries): \(error)")
        }
    }

    /// Waits for the snapshot being written aside, if any (tests, tools).
    package func snapshotAsideSettled() async {
        await snapshotAside?.value
    }

    /// Saves the engine as of `lastSequence` and drops the entries it covers. A failure
    /// leaves the journal as it was (one transaction) and is kept in `snapshotFailure`;
    /// the next try comes after another `every` inputs.
    func takeSnapshot() {
        guard let snapshotting, let instant = lastInstant, lastSequence > 0 else { return }
        do {
            let written = try Self.write(engine, as: lastSequence, at: instant, into: journal, snapshotting)
            archived(written)
            lastSnapshotBytes = written.bytes
            snapshotFailure = nil
            snapshotsTaken += 1
        } catch {
            snapshotFailure = String(describing: error)
            snapshotting.report(
                "the snapshot at journal entry \(lastSequence) failed (the journal keeps its entries): \(error)")
        }
        sinceSnapshot = JournalGrowth()
        guard snapshotFailure == nil else { return }
        do {
            try journal.releaseFreePages()
        } catch {
            // The snapshot stands; the pages stay on the free list for the journal to reuse.
            snapshotting.report(
                "the snapshot at journal entry \(lastSequence) is saved; giving its dropped entries' space back failed: \(error)"
            )
        }
    }

    /// Takes a snapshot now, whatever the policy (tests, tools). Throws when the host keeps
    /// none, or what the snapshot failed with.
    package func snapshotNow() throws {
        try checkOpen()
        guard snapshotting != nil else { throw SnapshotMismatch(reason: "this host keeps no snapshots") }
        takeSnapshot()
        if let snapshotFailure { throw SnapshotMismatch(reason: snapshotFailure) }
    }
}

extension EngineHost {
    /// Writes the engine as it is now into another journal, as its snapshot at this clock's
    /// `now`: a host opened on that journal starts where this one is (tools, and tests that
    /// compare the two), with the archive's records and the engine's since.
    package func copySnapshot(into other: Journal) throws {
        try checkOpen()
        guard let snapshotting else { throw SnapshotMismatch(reason: "this host keeps no snapshots") }
        var copy = engine
        var records: [ArchivedRecord] = []
        if let archive = snapshotting.archive {
            records = try journal.archived(after: 0, limit: archive.keep) + archive.take(&copy)
        }
        try other.writeSnapshot(
            JournalSnapshot(
                sequence: lastSequence, instant: clock.now, format: snapshotting.format,
                state: try snapshotting.encode(copy)),
            archiving: records, keep: snapshotting.archive?.keep ?? 0)
    }
}

/// Inputs journaled, and roughly the bytes they take in the journal.
struct JournalGrowth: Sendable, Equatable {
    var inputs = 0
    var bytes = 0

    mutating func add(payloadBytes: Int) {
        inputs += 1
        bytes += payloadBytes + SnapshotPolicy.entryOverhead
    }
}
