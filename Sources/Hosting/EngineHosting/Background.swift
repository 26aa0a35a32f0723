import Synchronization

/// Work a host starts and nobody waits for: on a system clock, the calls its effects make to
/// apps (a provider's timeline, an intent handler) and taking their answers back. It lives as
/// long as the host; closing the host cancels what is still running (its answers would be
/// refused by a closed host anyway).
final class Background: Sendable {
    private let jobs: AsyncStream<@Sendable () async -> Void>.Continuation
    private let runner: Task<Void, Never>

    init() {
        let (stream, jobs) = AsyncStream<@Sendable () async -> Void>.makeStream()
        self.jobs = jobs
        // One task owns every job, so stopping it cancels them all.
        runner = Task {
            await withDiscardingTaskGroup { group in
                for await job in stream { group.addTask { await job() } }
            }
        }
    }

    deinit { stop() }

    func start(_ job: @escaping @Sendable () async -> Void) {
        jobs.yield(job)
    }

    func stop() {
        jobs.finish()
        runner.cancel()
    }
}
