public import NIOCore

/// Runs tasks on the threads of an event loop group set aside for call handlers (not the
/// loops that do I/O). Jobs enqueued in a burst wake a loop once, where Dispatch's
/// cooperative pool would wake a worker per job: on small machines that is most of the
/// cost of a short call.
public final class EventLoopTaskExecutor: TaskExecutor {
    private let group: any EventLoopGroup

    public init(group: any EventLoopGroup) {
        self.group = group
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        group.next().execute { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
