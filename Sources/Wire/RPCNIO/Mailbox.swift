package import NIOCore
import Synchronization

/// Commands from call tasks to the event loop that owns a connection. Writers append
/// under a lock; the first `flush` after a drain wakes the loop once, so a burst of
/// responses from many calls costs one hop to the event loop, not one per call.
///
/// Invariants: `wakeScheduled` is true from the first flushing send after a drain until the
/// next drain; commands are drained in the order they were sent.
package final class Mailbox<Command: Sendable>: Sendable {
    private struct State {
        var commands: [Command] = []
        var wakeScheduled = false
        var closed = false
    }

    private let state = Mutex(State())
    private let eventLoop: any EventLoop
    private let wake: @Sendable () -> Void

    package init(eventLoop: any EventLoop, wake: @escaping @Sendable () -> Void) {
        self.eventLoop = eventLoop
        self.wake = wake
    }

    /// Queues `command`; with `flush`, makes sure the event loop will drain soon.
    /// Returns false when the connection is gone.
    @discardableResult
    package func send(_ command: Command, flush: Bool = true) -> Bool {
        let (accepted, mustWake) = state.withLock { state -> (Bool, Bool) in
            if state.closed { return (false, false) }
            state.commands.append(command)
            guard flush, !state.wakeScheduled else { return (true, false) }
            state.wakeScheduled = true
            return (true, true)
        }
        if mustWake { eventLoop.execute(wake) }
        return accepted
    }

    /// Makes sure the event loop will drain what is queued.
    package func flush() {
        let mustWake = state.withLock { state -> Bool in
            guard !state.closed, !state.commands.isEmpty, !state.wakeScheduled else { return false }
            state.wakeScheduled = true
            return true
        }
        if mustWake { eventLoop.execute(wake) }
    }

    /// On the event loop: takes every queued command, swapping in `spare` to reuse storage.
    package func drain(into spare: inout [Command]) {
        state.withLock { state in
            swap(&state.commands, &spare)
            state.wakeScheduled = false
        }
    }

    /// Refuses further commands (the connection closed) and hands back those never drained,
    /// so that their senders can be answered.
    package func close(returningPending pending: inout [Command]) {
        state.withLock { state in
            state.closed = true
            swap(&state.commands, &pending)
        }
    }
}
