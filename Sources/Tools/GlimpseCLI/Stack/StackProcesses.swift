#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The members of a running stack (`StackSupervisor` starts them): waits until each says
/// `listening on port N`, and stops them: the gateway and the apps first, the services last,
/// SIGTERM then SIGKILL after a grace period. Every member runs in a session of its own, so
/// Ctrl-C reaches `glimpse up` alone and the stop happens in that order.
struct StackProcesses: Sendable {
    let directory: String
    var started: [(member: StackPlan.Member, pid: Int32)] = []

    init(directory: String) { self.directory = directory }

    func log(of member: StackPlan.Member) -> String { StackSupervisor.log(of: member, in: directory) }

    /// The processes a record names, as members of its plan.
    init(directory: String, record: StackRecord) {
        self.directory = directory
        started = record.processes.compactMap { process in
            record.plan.first { $0.name == process.name }.map { ($0, process.pid) }
        }
    }

    /// Waits until every member has printed `listening on port` since its latest start; a
    /// member that exits first fails the start with the end of its log.
    func waitUntilListening(timeout: Duration = .seconds(60)) async throws(CLIFailure) {
        let deadline = ContinuousClock.now + timeout
        var waiting = started
        while !waiting.isEmpty {
            waiting = waiting.filter { entry in
                let text = (try? Files.read(log(of: entry.member))).map { String(decoding: $0, as: UTF8.self) } ?? ""
                // Only this start's lines: the log keeps earlier runs' (a stack started again
                // in the same directory), whose "listening" says nothing about this process.
                return !StackSupervisor.latestStart(of: text).contains("listening on port")
            }
            for entry in waiting {
                if let status = Processes.exited(entry.pid) {
                    throw CLIFailure.local(
                        "\(entry.member.name) exited (status \(status)) before listening:\n\(tail(of: entry.member))")
                }
            }
            if waiting.isEmpty { break }
            try StackSignals.checkStop()
            guard ContinuousClock.now < deadline else {
                throw CLIFailure.local(
                    "\(waiting.map(\.member.name).joined(separator: ", ")) did not start listening within \(timeout)")
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The last lines of a member's log.
    func tail(of member: StackPlan.Member, lines: Int = 15) -> String {
        let text = (try? Files.read(log(of: member))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).map { "  | \($0)" }.joined(
            separator: "\n")
    }

    /// Stops recorded processes (this run's or an earlier, detached one's): apps and the
    /// gateway first, then the services; SIGKILL for any still there after `grace`.
    static func stop(
        _ processes: [StackRecord.Process], grace: Duration = .seconds(10)
    ) async -> (stopped: Int, killed: Int) {
        let groups = [
            processes.filter { !$0.name.hasPrefix("glimpse-") || $0.name == "glimpse-gateway" },
            processes.filter { $0.name.hasPrefix("glimpse-") && $0.name != "glimpse-gateway" },
        ]
        var killed = 0
        for group in groups where !group.isEmpty {
            for process in group { kill(process.pid, SIGTERM) }
            let deadline = ContinuousClock.now + grace
            while ContinuousClock.now < deadline, group.contains(where: { gone($0.pid) == false }) {
                try? await Task.sleep(for: .milliseconds(20))
            }
            for process in group where gone(process.pid) == false {
                kill(process.pid, SIGKILL)
                killed += 1
                _ = gone(process.pid)
            }
        }
        return (processes.count, killed)
    }

    /// Reaps a child if it has exited; true when the process no longer exists.
    private static func gone(_ pid: Int32) -> Bool {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { return true }
        return !Processes.alive(pid)
    }
}
