#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import GlimpseVocabulary

/// The one engine host every service uses: it owns one engine on one serial executor,
/// journals each input before acknowledging it, carries out the effects, and drives time
/// (a timer in system mode, `advance(to:)` in manual mode).
///
/// Invariants:
/// - Every input that changed the engine is in the journal, in the order it was applied,
///   with the instant the clock was pinned to while it applied: a command (`submit`) or a
///   firing (`fireDue()` at t). Its row and the engine change commit together: a command
///   `apply` rejects (throws) leaves no row, and `submit` returns only after the commit.
/// - Opening a host restores the journal's snapshot (if any) into the fresh engine it is
///   given, then replays the entries after it, each with the clock pinned to its instant and
///   its effects discarded, so the engine ends in the state it had when the journal was last
///   written. A snapshot is the engine as of one entry, written with the deletion of the
///   entries up to it in one transaction (see `EngineHost+Snapshots`).
/// - Effects go to `perform` after their input is journaled, batch by batch in journal
///   order. `perform` may submit later commands; it runs on the host's executor until it
///   suspends, and while it is suspended other inputs may be applied.
/// - `apply` must leave the engine unchanged when it throws (engine calls check their
///   arguments before they change anything), and must be deterministic given the engine,
///   the command and the clock's `now`: replay depends on it.
/// - After a failed journal write the engine may be ahead of the journal: the host then
///   refuses every input (`EngineHostError.journalFailed`) until it is reopened.
package actor EngineHost<E: Engine, C: HostCommand> {
    package typealias Apply = @Sendable (inout E, C) throws -> Step<C.Answer, E.Effect>
    /// Carries out effects; it gets the host, to submit what the effects bring back
    /// (a provider's answer, a handler's result).
    package typealias Perform = @Sendable (EngineHost<E, C>, [E.Effect]) async -> Void

    package nonisolated let clock: HostClock
    package nonisolated let journal: Journal
    var engine: E
    let apply: Apply
    let perform: Perform
    let wakeup = Wakeup()
    /// Calls to apps on a system clock (`callOut`), which nobody on the host's path awaits.
    nonisolated let background = Background()
    var failure: EngineHostError? {
        didSet { if let failure { failed.record(failure) } }
    }
    /// The host-level failure, for those who stop serving on it (health, the process).
    package nonisolated let failed = HostFailure()
    var closed = false
    /// Submitted commands waiting for the next group commit, in arrival order.
    var waiting: [C] = []
    /// Who waits for them: each caller's count of `waiting`, in the same order.
    var waiters: [Waiter] = []
    /// The sequence of the last journaled input (0 for an empty journal); it keeps counting
    /// when snapshots drop old entries.
    package internal(set) var lastSequence: Int64
    /// The instant of that input.
    var lastInstant: Date?
    let snapshotting: Snapshotting<E>?
    /// How the host started: from which snapshot, how many entries it replayed.
    package nonisolated let opening: Opening
    /// What was journaled since the last snapshot (or the start).
    var sinceSnapshot = JournalGrowth()
    var lastSnapshotBytes = 0
    /// Why the last snapshot failed; nil once one succeeds. A failed snapshot changes
    /// nothing: the journal keeps its entries and the host serves on.
    package internal(set) var snapshotFailure: String?
    /// Snapshots this host has written.
    package internal(set) var snapshotsTaken = 0
    /// The snapshot being encoded and written aside (`Snapshotting.encodesAside`), if any.
    var snapshotAside: Task<Void, Never>?

    /// How many firings in a row at one instant make the host give up on an engine as stuck.
    package static var sameInstantLimit: Int { 10_000 }

    /// Restores the journal's snapshot into `engine` (fresh, constructed with `clock`) when
    /// there is one, replays the entries after it, then serves. With `snapshotting`, the host
    /// saves the engine's state as its policy says and drops the entries it covers.
    package init(
        engine: E, clock: HostClock, journal: Journal, snapshotting: Snapshotting<E>? = nil,
        apply: @escaping Apply, perform: @escaping Perform
    ) throws {
        let opened = try Self.open(engine, clock: clock, journal: journal, snapshotting: snapshotting, apply: apply)
        self.engine = opened.engine
        self.clock = clock
        self.journal = journal
        self.apply = apply
        self.perform = perform
        self.snapshotting = snapshotting
        opening = opened.opening
        lastSequence = opened.lastSequence
        lastInstant = opened.lastInstant
        sinceSnapshot = opened.growth
        lastSnapshotBytes = opened.snapshotBytes
    }

    /// Journals `command` at the clock's `now`, applies it, performs its effects, and
    /// returns its answer. Throws what `apply` threw (nothing journaled), or a journal error.
    ///
    /// Group commit: commands submitted while the host is busy wait together and go into
    /// the journal in one transaction (each in arrival order, each with its own savepoint),
    /// so concurrent callers share one commit instead of paying one each.
    @discardableResult
    package func submit(_ command: C) async throws -> C.Answer {
        try checkOpen()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<C.Answer, any Error>) in
            wait(for: [command], Waiter(count: 1, early: false) { continuation.resume(with: $0[0]) })
        }
    }

    /// Journals and applies `commands` in the host's next group commit, with those of other
    /// callers, and returns their results (in order) once they are committed, before their
    /// effects are performed; a command's result is the error that kept it out of the
    /// journal. For callers whose answer does not wait on the effects (an APNs push's 200:
    /// durable once journaled, the watchers follow).
    package func submit(grouped commands: [C]) async -> [Result<C.Answer, any Error>] {
        do { try checkOpen() } catch { return commands.map { _ in .failure(error) } }
        guard !commands.isEmpty else { return [] }
        return await withCheckedContinuation {
            (continuation: CheckedContinuation<[Result<C.Answer, any Error>], Never>) in
            wait(for: commands, Waiter(count: commands.count, early: true) { continuation.resume(returning: $0) })
        }
    }

    /// Someone waiting for `count` commands of the next group commit.
    struct Waiter {
        var count: Int
        /// Answered once committed, before the effects are performed.
        var early: Bool
        var reply: @Sendable ([Result<C.Answer, any Error>]) -> Void
    }

    private func wait(for commands: [C], _ waiter: Waiter) {
        // The first to wait schedules the flush behind whatever is queued on the host now.
        if waiting.isEmpty { Task { await self.flushWaiting() } }
        waiting += commands
        waiters.append(waiter)
    }

    /// Commits every waiting command as one batch and answers each caller.
    private func flushWaiting() async {
        let commands = waiting
        let group = waiters
        waiting = []
        waiters = []
        guard !commands.isEmpty else { return }
        func reply(_ results: [Result<C.Answer, any Error>], early: Bool) {
            var start = 0
            for waiter in group {
                if waiter.early == early { waiter.reply(Array(results[start..<start + waiter.count])) }
                start += waiter.count
            }
        }
        var answeredEarly = false
        do {
            let results = try await submit(batch: commands) { results in
                reply(results, early: true)
                answeredEarly = true
            }
            reply(results, early: false)
        } catch {
            let failed = commands.map { _ in Result<C.Answer, any Error>.failure(error) }
            if !answeredEarly { reply(failed, early: true) }
            reply(failed, early: false)
        }
    }

    /// Journals and applies `commands` in one transaction at the clock's `now`, in order,
    /// then performs their effects together: the way to take many inputs at once (a batch of
    /// provider answers) without one commit each. A command `apply` rejects leaves no entry
    /// and its error is its result; the others still apply. Throws only what fails the whole
    /// batch (a closed host, a journal error, an encoding error).
    ///
    /// `answered`, when given, gets the results as soon as the batch is committed, before
    /// its effects are performed: for callers whose answer does not wait on the effects
    /// (an APNs push's 200 once the push is journaled and applied).
    package func submit(
        batch commands: [C], answered: ([Result<C.Answer, any Error>]) -> Void = { _ in }
    ) async throws -> [Result<C.Answer, any Error>] {
        try checkOpen()
        guard !commands.isEmpty else { return [] }
        var payloads: [[UInt8]] = []
        var results: [Result<C.Answer, any Error>?] = Array(repeating: nil, count: commands.count)
        var encoded: [Int] = []
        for (index, command) in commands.enumerated() {
            do {
                payloads.append(try command.encode())
                encoded.append(index)
            } catch {
                results[index] = .failure(error)
            }
        }
        let instant = clock.now
        clock.pin(instant)
        var effects: [E.Effect] = []
        do {
            defer { clock.unpin() }
            let written: (sequence: Int64, results: [Result<Step<C.Answer, E.Effect>, any Error>])
            do {
                written = try journal.appendBatch(instant: instant, payloads: payloads, previous: lastSequence) {
                    index in
                    try apply(&engine, commands[encoded[index]])
                }
            } catch {
                let failure = EngineHostError.journalFailed(String(describing: error))
                self.failure = failure
                throw failure
            }
            lastSequence = written.sequence
            var growth = JournalGrowth()
            for (position, (index, result)) in zip(encoded, written.results).enumerated() {
                switch result {
                case .success(let step):
                    effects += step.effects
                    results[index] = .success(step.answer)
                    growth.add(payloadBytes: payloads[position].count)
                case .failure(let error):
                    results[index] = .failure(error)
                }
            }
            if growth.inputs > 0 { journaled(growth, at: instant) }
        }
        wakeup.signal()
        let answers = results.map { $0! }
        answered(answers)
        await perform(self, effects)
        // A manual clock stands still, but what is due at its `now` is due: it happens at
        // once, as the system timer would do it (a placement's first provider call, say).
        if clock.isManual, let next = engine.nextDeadline(), next <= clock.now {
            try await advance(to: clock.now)
        }
        return answers
    }

    /// Reads the engine (queries that change nothing need no journal).
    package func read<T: Sendable>(_ body: (E) throws -> T) rethrows -> T {
        try body(engine)
    }

    /// The engine's next deadline (`NextDue` of the clock service).
    package func nextDue() -> Date? {
        engine.nextDeadline()
    }

    /// Takes a last snapshot (as the policy says), stops the timer, and checkpoints and
    /// closes the journal; later inputs throw `.closed`.
    package func close() throws {
        guard !closed else { return }
        // A snapshot still being written aside would be cut off by the journal's close: this
        // one replaces it.
        if failure == nil, let snapshotting, snapshotting.policy.isOn, snapshotting.policy.atClose,
            sinceSnapshot.inputs > 0 || snapshotAside != nil
        {
            takeSnapshot()
        }
        closed = true
        wakeup.signal()
        background.stop()
        try journal.close()
    }

    func checkOpen() throws {
        if closed { throw EngineHostError.closed }
        if let failure { throw failure }
    }

    /// Runs `fireDue()` at `instant` (journaled first, in the same transaction).
    func fire(at instant: Date) throws -> [E.Effect] {
        clock.pin(instant)
        defer { clock.unpin() }
        let effects: [E.Effect]
        (lastSequence, effects) = try journaled(.fireDue, instant: instant, payload: []) { engine in
            engine.fireDue()
        }
        var growth = JournalGrowth()
        growth.add(payloadBytes: 0)
        journaled(growth, at: instant)
        return effects
    }

    private struct Rejected: Error {
        var error: any Error
    }

    /// One journal row and one engine change, committed together.
    private func journaled<T>(
        _ kind: JournalEntry.Kind, instant: Date, payload: [UInt8],
        change: (inout E) throws -> T
    ) throws -> (Int64, T) {
        do {
            let (sequence, result) = try journal.append(kind, instant: instant, payload: payload) {
                do { return try change(&engine) } catch { throw Rejected(error: error) }
            }
            return (sequence, result)
        } catch let rejected as Rejected {
            throw rejected.error
        } catch {
            // The change may have committed in memory but not on disk.
            let failure = EngineHostError.journalFailed(String(describing: error))
            self.failure = failure
            throw failure
        }
    }
}

extension EngineHost where C.Answer == Void {
    /// A host whose commands answer nothing: `apply` returns only effects.
    package init(
        engine: E, clock: HostClock, journal: Journal, snapshotting: Snapshotting<E>? = nil,
        apply: @escaping @Sendable (inout E, C) throws -> [E.Effect],
        perform: @escaping Perform
    ) throws {
        try self.init(
            engine: engine, clock: clock, journal: journal, snapshotting: snapshotting,
            apply: { engine, command in Step((), effects: try apply(&engine, command)) },
            perform: perform)
    }
}
