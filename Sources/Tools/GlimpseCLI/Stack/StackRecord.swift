#if canImport(Glibc)
import Glibc
#endif
import GlimpseJSON

/// `<dir>/stack.json`: the plan of a running stack and its processes as its supervisor keeps
/// them (pids, restarts, start times), so `glimpse status`, `restart`, `down` (or a second
/// `glimpse up`) find them. Written as soon as the first process starts, so a stack that
/// failed half-way can still be stopped.
struct StackRecord: Sendable, Equatable {
    struct Process: Sendable, Equatable {
        var name: String
        var pid: Int32
        var port: Int
        var executable: String
        var restarts = 0
        var started = ""
    }

    var processes: [Process]
    var started: String
    /// The process that keeps the members running (`glimpse up` or `glimpse supervise`).
    var supervisor: Int32 = 0
    var plan: [StackPlan.Member] = []

    static func path(in directory: String) -> String { "\(directory)/stack.json" }

    static func read(from directory: String) -> StackRecord? {
        guard let bytes = try? Files.read(path(in: directory)), let value = try? JSONParser.parse(bytes) else {
            return nil
        }
        guard case .array(let items)? = value["processes"] else { return nil }
        let processes = items.compactMap { item -> Process? in
            guard let name = item["name"]?.stringValue, let pid = item["pid"]?.doubleValue,
                let port = item["port"]?.doubleValue, let executable = item["executable"]?.stringValue
            else { return nil }
            return Process(
                name: name, pid: Int32(pid), port: Int(port), executable: executable,
                restarts: Int(item["restarts"]?.doubleValue ?? 0), started: item["started"]?.stringValue ?? "")
        }
        var plan: [StackPlan.Member] = []
        if case .array(let members)? = value["plan"] {
            plan = members.compactMap { item -> StackPlan.Member? in
                guard let name = item["name"]?.stringValue, let executable = item["executable"]?.stringValue,
                    let port = item["port"]?.doubleValue, case .array(let arguments)? = item["arguments"]
                else { return nil }
                return StackPlan.Member(
                    name: name, executable: executable, arguments: arguments.compactMap(\.stringValue), port: Int(port),
                    role: item["role"]?.stringValue ?? "", isService: item["service"] == .bool(true),
                    environment: Self.strings(item["environment"]))
            }
        }
        return StackRecord(
            processes: processes, started: value["started"]?.stringValue ?? "",
            supervisor: Int32(value["supervisor"]?.doubleValue ?? 0), plan: plan)
    }

    /// An object's string members (a missing or other value: none).
    private static func strings(_ value: JSONValue?) -> [String: String] {
        guard case .object(let members)? = value else { return [:] }
        var strings: [String: String] = [:]
        for member in members { if let text = member.value.stringValue { strings[member.key] = text } }
        return strings
    }

    func write(to directory: String) throws(Files.Failure) {
        let value: JSONValue = .object([
            JSONMember("started", .string(started)),
            JSONMember("supervisor", .number(Int(supervisor))),
            JSONMember(
                "processes",
                .array(
                    processes.map { process in
                        .object([
                            JSONMember("name", .string(process.name)), JSONMember("pid", .number(Int(process.pid))),
                            JSONMember("port", .number(process.port)),
                            JSONMember("executable", .string(process.executable)),
                            JSONMember("restarts", .number(process.restarts)),
                            JSONMember("started", .string(process.started)),
                        ])
                    })),
            JSONMember(
                "plan",
                .array(
                    plan.map { member in
                        .object([
                            JSONMember("name", .string(member.name)),
                            JSONMember("executable", .string(member.executable)),
                            JSONMember("arguments", .array(member.arguments.map { .string($0) })),
                            JSONMember("port", .number(member.port)), JSONMember("role", .string(member.role)),
                            JSONMember("service", .bool(member.isService)),
                            JSONMember(
                                "environment",
                                .object(
                                    member.environment.sorted { $0.key < $1.key }.map {
                                        JSONMember($0.key, .string($0.value))
                                    })),
                        ])
                    })),
        ])
        // Written aside and renamed, so a reader never sees half a file; 0600, as a member's
        // environment may hold a secret (a store's URL with its password).
        let path = Self.path(in: directory)
        try Files.write(value.serialized() + [0x0A], to: path + ".new", mode: 0o600)
        rename(path + ".new", path)
    }

    /// The recorded processes still running as what was started (a reused pid is not ours).
    var running: [Process] {
        processes.filter { Processes.alive($0.pid) && Processes.commandLine($0.pid).hasPrefix($0.executable) }
    }

    /// Whether the supervisor that wrote this record still runs.
    var supervised: Bool {
        supervisor > 0 && Processes.alive(supervisor) && Processes.commandLine(supervisor).contains("glimpse")
    }
}
