#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps a stack's processes running, as compose's `restart: unless-stopped` does: a member
/// that exits is started again after a backoff (1 s, doubling to 30 s; back to 1 s once it
/// has run a minute), and one a `glimpse restart` asked for at once. It owns the members as
/// its children and keeps `<dir>/stack.json` current (pids, restarts, start times), so
/// `glimpse status`, `restart` and `down` find them. `glimpse up` runs it in the foreground,
/// or detached as `glimpse supervise`.
struct StackSupervisor {
    struct Entry {
        var member: StackPlan.Member
        var pid: Int32?
        var started = Date()
        var startedAt = ContinuousClock.now
        var restarts = 0
        var backoff: Duration = .seconds(1)
        var restartAt: ContinuousClock.Instant?
    }

    let directory: String
    private(set) var entries: [Entry]
    let started: String
    /// What happened, for the foreground's output and `<dir>/logs/supervisor.log`.
    var say: (String) -> Void = { _ in }

    init(directory: String, plan: [StackPlan.Member], started: String = Date().ISO8601Format()) {
        self.directory = directory
        entries = plan.map { Entry(member: $0) }
        self.started = started
    }

    /// Starts every member (in the plan's order) and records them.
    mutating func startAll() throws(CLIFailure) {
        for index in entries.indices { try start(index) }
    }

    private mutating func start(_ index: Int) throws(CLIFailure) {
        let member = entries[index].member
        guard Files.exists(member.executable) else {
            throw CLIFailure.local(
                "\(member.executable) is missing: build it first (swift build -c release), or point --bin at the folder that has it"
            )
        }
        let pid: Int32
        let log = Self.log(of: member, in: directory)
        do {
            // A member's log is kept across starts: this line marks where this start's output
            // begins (StackProcesses waits for "listening on port" after the last one).
            try? Files.appendLine(Self.startLine(member, at: Date()), to: log)
            pid = try Processes.spawn(
                member.executable, member.arguments, log: log, environment: member.environment, newSession: true)
        } catch {
            throw CLIFailure.local("cannot start \(member.name): \(error.description)")
        }
        entries[index].pid = pid
        entries[index].started = Date()
        entries[index].startedAt = .now
        entries[index].restartAt = nil
        writeRecord()
    }

    /// One look at the members: reaps those that exited and starts again those whose turn has come.
    mutating func tick() {
        let now = ContinuousClock.now
        for index in entries.indices {
            if let pid = entries[index].pid, let status = Processes.exited(pid) {
                let name = entries[index].member.name
                entries[index].pid = nil
                if Files.remove(Self.restartRequest(name, in: directory)) {
                    entries[index].restartAt = now
                    say("\(name) restarted as asked")
                } else {
                    // A minute of running resets the backoff: a crash loop slows down, a rare crash does not.
                    if now - entries[index].startedAt >= .seconds(60) { entries[index].backoff = .seconds(1) }
                    entries[index].restartAt = now + entries[index].backoff
                    say("\(name) exited (status \(status)); starting it again in \(entries[index].backoff)")
                    entries[index].backoff = min(entries[index].backoff * 2, .seconds(30))
                }
                entries[index].restarts += 1
                writeRecord()
            }
            if entries[index].pid == nil, let at = entries[index].restartAt, at <= now {
                do { try start(index) } catch {
                    say("\(entries[index].member.name): \(error)")
                    entries[index].restartAt = now + entries[index].backoff
                }
            }
        }
    }

    /// Runs until SIGINT or SIGTERM (`StackSignals`), restarting members as they exit.
    mutating func superviseUntilStopped() async {
        while !StackSignals.stopRequested {
            tick()
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Stops every member (apps and the gateway first, then the services) and forgets the record.
    func stopAll() async -> (stopped: Int, killed: Int) {
        let result = await StackProcesses.stop(record.processes)
        _ = Files.remove(StackRecord.path(in: directory))
        return result
    }

    var record: StackRecord {
        StackRecord(
            processes: entries.compactMap { entry in
                entry.pid.map {
                    StackRecord.Process(
                        name: entry.member.name, pid: $0, port: entry.member.port, executable: entry.member.executable,
                        restarts: entry.restarts, started: entry.started.ISO8601Format())
                }
            },
            started: started, supervisor: getpid(), plan: entries.map(\.member))
    }

    func writeRecord() {
        try? record.write(to: directory)
    }

    static func log(of member: StackPlan.Member, in directory: String) -> String {
        "\(directory)/logs/\(member.name).log"
    }

    /// What the supervisor writes into a member's log before each start.
    static let startMark = "glimpse: starting "

    static func startLine(_ member: StackPlan.Member, at date: Date) -> String {
        "\(startMark)\(member.name) (\(date.ISO8601Format()))"
    }

    /// The part of a log a member's latest start wrote (all of it when no start is marked).
    static func latestStart(of log: String) -> Substring {
        guard let mark = log.ranges(of: startMark).last else { return log[...] }
        return log[mark.upperBound...]
    }

    /// `glimpse restart NAME` leaves this file for the supervisor to find when NAME exits.
    static func restartRequest(_ name: String, in directory: String) -> String { "\(directory)/logs/.restart-\(name)" }
}
