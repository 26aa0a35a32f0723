import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import GlimpseMessages
import GlimpseVocabulary

/// `glimpse status`: each process of a local stack with its pid, uptime, restarts and health
/// (grpc.health.v1 for the services and the gateway; listening, for the demo apps).
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a local stack's processes: pid, uptime, restarts, health. Exit 1 when one is down.")

    @Option(help: ArgumentHelp("The stack's directory.", valueName: "dir"))
    var dir = "./.glimpse"

    func run() async throws {
        guard let record = StackRecord.read(from: dir) else {
            throw CLIFailure.local("no stack is running from \(dir)")
        }
        let context = Current.context
        context.say(
            "stack from \(dir), started \(record.started); supervisor \(record.supervised ? "pid \(record.supervisor)" : "not running")"
        )
        context.say("name                 pid      uptime     restarts  health")
        var down = record.supervised ? 0 : 1
        let now = Date()
        for member in record.plan {
            let process = record.processes.first { $0.name == member.name }
            let alive = process.map { Processes.alive($0.pid) } ?? false
            let uptime =
                process.flatMap { try? Date($0.started, strategy: .iso8601) }.map {
                    DurationText.format(seconds: now.timeIntervalSince($0).rounded())
                } ?? "-"
            let health: String
            if !alive {
                health = "down"
            } else if member.isService {
                let status = try? await HealthCheck.check(
                    HostPort(host: "127.0.0.1", port: member.port), service: "", timeout: .seconds(5))
                health = status.map(HealthCheck.name(of:)) ?? "not answering"
            } else {
                health = Ports.inUse(member.port) ? "listening" : "not listening"
            }
            if health != "SERVING" && health != "listening" { down += 1 }
            context.say(
                Self.padded(member.name, 20) + " " + Self.padded(alive ? "\(process!.pid)" : "-", 8) + " "
                    + Self.padded(alive ? uptime : "-", 10)
                    + " " + Self.padded("\(process?.restarts ?? 0)", 9) + " " + health)
        }
        if down > 0 { throw CLIFailure.local("\(down) of the stack's processes (or its supervisor) are not up") }
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// `glimpse restart NAME`: the supervisor starts one process of a local stack again at once.
struct Restart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start one process of a local stack again (glimpse-timeline, demo-pizza…), through its supervisor.")

    @Argument(help: "The process, as `glimpse status` names it.")
    var name: String

    @Option(help: ArgumentHelp("The stack's directory.", valueName: "dir"))
    var dir = "./.glimpse"

    func run() async throws {
        guard let record = StackRecord.read(from: dir), record.supervised else {
            throw CLIFailure.local("no supervised stack is running from \(dir) (`glimpse up` starts one)")
        }
        guard let old = record.processes.first(where: { $0.name == name || $0.name == "glimpse-\(name)" }) else {
            throw CLIFailure.usage(
                "\(name): not a process of the stack (\(record.processes.map(\.name).joined(separator: ", ")))")
        }
        do { try Files.write([], to: StackSupervisor.restartRequest(old.name, in: dir)) } catch {
            throw CLIFailure.local("cannot write \(error.description)")
        }
        kill(old.pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let current = StackRecord.read(from: dir)?.processes.first(where: { $0.name == old.name }),
                current.pid != old.pid,
                Processes.alive(current.pid), Ports.inUse(current.port)
            {
                Current.context.note("\(old.name) restarted: pid \(old.pid) → \(current.pid)")
                return
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        throw CLIFailure.local("\(old.name) did not come back within 60s: see \(dir)/logs/\(old.name).log")
    }
}
