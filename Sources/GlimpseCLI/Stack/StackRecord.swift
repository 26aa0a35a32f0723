import GlimpseJSON

/// `<dir>/stack.json`: the processes of a running stack, so `glimpse down` (or a second
/// `glimpse up`) finds them. Written as soon as the first process starts, so a stack that
/// failed half-way can still be stopped.
struct StackRecord: Sendable, Equatable {
    struct Process: Sendable, Equatable {
        var name: String
        var pid: Int32
        var port: Int
        var executable: String
    }

    var processes: [Process]
    var started: String

    static func path(in directory: String) -> String { "\(directory)/stack.json" }

    static func read(from directory: String) -> StackRecord? {
        guard let bytes = try? Files.read(path(in: directory)), let value = try? JSONParser.parse(bytes) else { return nil }
        guard case .array(let items)? = value["processes"] else { return nil }
        let processes = items.compactMap { item -> Process? in
            guard let name = item["name"]?.stringValue, let pid = item["pid"]?.doubleValue,
                  let port = item["port"]?.doubleValue, let executable = item["executable"]?.stringValue else { return nil }
            return Process(name: name, pid: Int32(pid), port: Int(port), executable: executable)
        }
        return StackRecord(processes: processes, started: value["started"]?.stringValue ?? "")
    }

    func write(to directory: String) throws(Files.Failure) {
        let value: JSONValue = .object([
            JSONMember("started", .string(started)),
            JSONMember("processes", .array(processes.map { process in
                .object([
                    JSONMember("name", .string(process.name)), JSONMember("pid", .number(Int(process.pid))),
                    JSONMember("port", .number(process.port)), JSONMember("executable", .string(process.executable)),
                ])
            })),
        ])
        try Files.write(value.serialized() + [0x0A], to: Self.path(in: directory))
    }

    /// The recorded processes still running as what was started (a reused pid is not ours).
    var running: [Process] {
        processes.filter { Processes.alive($0.pid) && Processes.commandLine($0.pid).hasPrefix($0.executable) }
    }
}
