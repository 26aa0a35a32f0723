import ArgumentParser
import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import GlimpseJSON
import GlimpseMessages

/// `glimpse up`: the whole stack on loopback (the five executables and the seed demo apps),
/// the demo apps installed, their widgets placed and their Live Activities started, then
/// the screens printed and drawn under `<dir>/screens`. In the foreground until Ctrl-C
/// (then everything stops cleanly); with --detach it returns once the stack is up and
/// `glimpse down` stops it.
struct Up: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the stack and the seed demo apps on loopback; print the device.",
        discussion: """
            Data (SQLite), logs, app tokens, the demo APNs signing key and the drawn screens \
            live under --dir (default ./.glimpse). Starting a second stack from the same \
            directory, or while the ports are taken, is refused.
            """)

    @Option(help: ArgumentHelp("Where the stack keeps its data, logs and screens.", valueName: "dir"))
    var dir = "./.glimpse"

    @Option(
        help: ArgumentHelp("The folder with the executables (default: the one glimpse runs from).", valueName: "dir"))
    var bin: String?

    @Option(
        help: ArgumentHelp("The demo device file (default: Demos/device.json beside the build).", valueName: "file"))
    var demos: String?

    @Flag(name: .customLong("no-demos"), help: "Only the five executables: no demo apps.")
    var noDemos = false

    @Flag(help: "Return once the stack is up (stop it with `glimpse down`).")
    var detach = false

    @Option(
        help: ArgumentHelp(
            "Manual clocks from this instant (ISO 8601), frozen there until moved (glimpse clock advance, set, follow): a script's steps give the same event log every run.",
            valueName: "instant"))
    var manual: String?

    @Flag(help: "With --manual: the clocks move with real time from the instant (the gateway conducts).")
    var follow = false

    @Option(
        help: ArgumentHelp(
            "Activity ids and push tokens of a new stack derive from this text (default with --manual: the instant; else random).",
            valueName: "text"))
    var seed: String?

    @Option(help: "The screen model (iPhone393x852, iPhone430x932, iPhone375x812, iPhone375x667, iPad1024x1366).")
    var device: String?

    @Option(
        name: .customLong("max-devices"),
        help: ArgumentHelp(
            "The most devices beside the default one every process holds (`glimpse devices`, `glimpse fleet`; default 250).",
            valueName: "n"))
    var maxDevices: Int?

    @Option(
        help: ArgumentHelp(
            "Run this many sets of the four services (shards a, b, …; b's ports 20 above a's), the gateway's devices spread over them (default 1: no shards).",
            valueName: "n"))
    var shards = 1

    @Option(
        name: .customLong("port-offset"),
        help: ArgumentHelp(
            "Added to every port (gateway 7700, services 7701-7704, demo apps 7710-7714, APNs 7443/7444), to run beside another stack.",
            valueName: "n"))
    var portOffset = 0

    @Option(
        help: ArgumentHelp(
            "Where the four services keep their journals: sqlite (the default: under --dir) or postgres://user:password@host:port/database (given to them in their environment, not on their command lines; with a password, --store-file keeps it off this one's too; glimpse-asset's blob files stay under --dir).",
            valueName: "store"))
    var store: String?

    @Option(
        name: .customLong("store-file"),
        help: ArgumentHelp(
            "A file holding --store's URL: its password then stays off this command's own command line.",
            valueName: "file"))
    var storeFile: String?

    func validate() throws {
        guard (0...StackPlan.largestPortOffset).contains(portOffset) else {
            throw ValidationError(
                "--port-offset must be 0...\(StackPlan.largestPortOffset) (every port stays at or under 65535)")
        }
        guard (1...StackPlan.largestShardCount).contains(shards) else {
            throw ValidationError("--shards must be 1...\(StackPlan.largestShardCount)")
        }
        guard StackPlan.shardPorts(shards - 1, offset: portOffset).all.allSatisfy({ $0 <= 65535 }) else {
            throw ValidationError("--port-offset \(portOffset) with --shards \(shards) puts ports past 65535")
        }
        if store != nil, storeFile != nil { throw ValidationError("give --store or --store-file, not both") }
        if let store { try Self.checkStore(store, from: "--store") }
        if follow, manual == nil { throw ValidationError("--follow moves manual clocks: give --manual <instant> too") }
    }

    static func checkStore(_ store: String, from origin: String) throws(ValidationError) {
        guard
            store == "sqlite" || ["postgres://", "postgresql://"].contains(where: { store.lowercased().hasPrefix($0) })
        else {
            throw ValidationError("\(origin) takes sqlite or a postgres://user:password@host:port/database URL")
        }
    }

    /// The store `--store` or `--store-file` names; nil: SQLite.
    func storeURL() throws -> String? {
        var given = store
        if let storeFile {
            let bytes: [UInt8]
            do { bytes = try Files.read(storeFile) } catch {
                throw CLIFailure.local("--store-file: \(error.description)")
            }
            let text = String(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace })
            try Self.checkStore(text, from: "--store-file \(storeFile)")
            given = text
        }
        return given == "sqlite" ? nil : given
    }

    var context: CLIContext { Current.context }

    func run() async throws {
        let began = ContinuousClock.now
        try await Self.refuseIfRunning(dir)
        let binaries = bin ?? Self.ownFolder()
        let demoFile = demos ?? Self.defaultDemoFile(binaries: binaries)
        let demoDevice: DemoDevice? = noDemos ? nil : try DemoDevice.load(demoFile)
        do {
            // The stack's folder holds tokens, keys and the services' stores: made 0700.
            try Files.makeDirectory(dir, mode: 0o700)
            for sub in ["logs", "screens"] { try Files.makeDirectory("\(dir)/\(sub)", mode: 0o700) }
            for sub in ["tokens", "apns"] { try Files.makePrivateDirectory("\(dir)/\(sub)") }
        } catch { throw CLIFailure.local("cannot make \(error.description)") }
        let key = try Self.demoSigningKey(in: "\(dir)/apns")
        var options = StackPlan.Options()
        options.directory = dir
        options.binaries = binaries
        options.manualStart = manual
        options.followRealTime = follow
        options.seed = seed
        options.device = device
        options.maxDevices = maxDevices
        options.shards = shards
        options.apnsKey = key
        options.portOffset = portOffset
        options.store = try storeURL()
        if shards > 1, let store = options.store, store != "sqlite" {
            // Each shard's journals need a database of their own; one URL would mix them.
            throw CLIFailure.local("--shards keeps each shard's journals in SQLite files: give no PostgreSQL --store")
        }
        options.demoApps = demoDevice?.apps.map { StackPlan.DemoApp(name: $0.name, port: $0.port) } ?? []
        let plan = StackPlan(options)
        try Self.refuseTakenPorts(plan)
        if let map = plan.shardMap {
            do { try Files.write(Array(map.json.utf8), to: map.path) } catch {
                throw CLIFailure.local("cannot write \(error)")
            }
        }

        StackSignals.install()
        defer { StackSignals.restore() }
        var supervisor = StackSupervisor(directory: dir, plan: plan.members)
        supervisor.say = { context.note("glimpse up: \($0)") }
        var processes = StackProcesses(directory: dir)
        do {
            if detach {
                // The stack's own supervisor, in a session of its own: it starts the members and
                // keeps them running after this command returns.
                processes = try await Self.startSupervisor(supervisor, directory: dir)
            } else {
                try supervisor.startAll()
                processes = StackProcesses(directory: dir, record: supervisor.record)
            }
            try await processes.waitUntilListening()
            var shown = StackDemo(directory: dir, context: context)
            shown.gateway = HostPort(host: "127.0.0.1", port: plan.gatewayPort)
            if portOffset != 0, let demoDevice {
                for app in demoDevice.apps { shown.endpoints[app.name] = StackPlan.loopback(app.port + portOffset) }
            }
            if let demoDevice { try await shown.setUp(demoDevice) }
            try StackSignals.checkStop()
            let elapsed = ContinuousClock.now - began
            try await shown.printScreens()
            let caPath = Self.caPath(processes, plan)
            try Self.writeProvider(key: key, caPath: caPath, plan: plan, in: "\(dir)/apns")
            StackText.addresses(plan, directory: dir, key: key, caPath: caPath, context: context)
            context.note(
                "glimpse up: \(plan.members.count) processes up and the first screens drawn in \(StackText.seconds(elapsed))"
            )
        } catch {
            context.note("glimpse up: stopping what started")
            _ = await Down.stop(dir)
            throw error
        }
        if detach {
            context.note(
                "detached, supervised (a process that exits is started again): `glimpse status\(dirFlag)` shows it, `glimpse down\(dirFlag)` stops it"
            )
            return
        }
        context.note("running, supervised (a process that exits is started again); Ctrl-C stops everything")
        await supervisor.superviseUntilStopped()
        context.note("glimpse up: stopping")
        let (stopped, killed) = await supervisor.stopAll()
        context.note("stopped \(stopped) processes" + (killed > 0 ? " (\(killed) killed after the grace period)" : ""))
    }

    var dirFlag: String { dir == "./.glimpse" ? "" : " --dir \(dir)" }

    /// Starts `glimpse supervise` for the plan and waits until it has started every member.
    static func startSupervisor(
        _ supervisor: StackSupervisor, directory: String
    ) async throws(CLIFailure) -> StackProcesses {
        var record = supervisor.record
        record.supervisor = 0
        do { try record.write(to: directory) } catch { throw CLIFailure.local("cannot write \(error.description)") }
        let pid: Int32
        do {
            pid = try Processes.spawn(
                ownExecutable(), ["supervise", "--dir", directory], log: "\(directory)/logs/supervisor.log",
                newSession: true)
        } catch { throw CLIFailure.local("cannot start the supervisor: \(error.description)") }
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if let current = StackRecord.read(from: directory), current.supervisor == pid,
                current.processes.count == supervisor.entries.count
            {
                return StackProcesses(directory: directory, record: current)
            }
            if let status = Processes.exited(pid) {
                let log =
                    (try? Files.read("\(directory)/logs/supervisor.log")).map { String(decoding: $0, as: UTF8.self) }
                    ?? ""
                throw CLIFailure.local("the supervisor exited (status \(status)) before starting the stack:\n\(log)")
            }
            try StackSignals.checkStop()
            guard ContinuousClock.now < deadline else {
                throw CLIFailure.local("the supervisor did not start the stack within 60s")
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A stack whose supervisor runs is refused; what a dead one left running (its
    /// supervisor killed) is stopped first, so a new start is never blocked by leftovers.
    static func refuseIfRunning(_ dir: String) async throws(CLIFailure) {
        guard let record = StackRecord.read(from: dir) else { return }
        if record.supervised {
            let names = record.running.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
            throw CLIFailure.local(
                "a stack is already running from \(dir), started \(record.started): \(names). `glimpse status\(dir == "./.glimpse" ? "" : " --dir \(dir)")` shows it, `glimpse down\(dir == "./.glimpse" ? "" : " --dir \(dir)")` stops it"
            )
        }
        let (stopped, _) = await Down.stop(dir)
        if stopped > 0 {
            Current.context.note(
                "glimpse up: stopped \(stopped) process(es) an earlier stack from \(dir) left running without its supervisor"
            )
        }
    }

    static func refuseTakenPorts(_ plan: StackPlan) throws(CLIFailure) {
        let taken = plan.ports.filter(Ports.inUse)
        guard taken.isEmpty else {
            throw CLIFailure.local(
                "port(s) \(taken.map(String.init).joined(separator: ", ")) on 127.0.0.1 are taken: another stack (see `glimpse down --dir …`) or another program holds them; --port-offset N moves every port"
            )
        }
    }

    /// The folder of the running executable (where SwiftPM put its siblings).
    static func ownFolder() -> String {
        Files.directory(of: ownExecutable())
    }

    /// The running executable's path (what `glimpse supervise` is started as).
    static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "./glimpse" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Demos/device.json in the working directory, else in the checkout the binaries were built in.
    static func defaultDemoFile(binaries: String) -> String {
        if Files.exists("Demos/device.json") { return "Demos/device.json" }
        var folder = binaries
        for _ in 0..<4 {
            folder = Files.directory(of: folder)
            if Files.exists("\(folder)/Demos/device.json") { return "\(folder)/Demos/device.json" }
        }
        return "Demos/device.json"
    }

    /// A P-256 signing key for the demo push server (an AuthKey .p8, as Apple issues them),
    /// made once per stack directory; glimpse-activity checks provider tokens against it.
    static func demoSigningKey(in folder: String) throws(CLIFailure) -> (team: String, keyID: String, path: String) {
        let (team, keyID) = ("GLIMPSEDEV", "DEMOKEY001")
        let path = "\(folder)/AuthKey_\(keyID).p8"
        if Files.exists(path) {
            Files.makePrivate(path)
        } else {
            let pem = P256.Signing.PrivateKey().pemRepresentation + "\n"
            do { try Files.writeSecret(pem, to: path) } catch {
                throw CLIFailure.local("cannot write \(error.description)")
            }
        }
        return (team, keyID, path)
    }

    /// `<dir>/apns/provider.json`: what a push server needs to reach this stack's APNs
    /// endpoint (Demos/pizza/push_server.py reads it).
    static func writeProvider(
        key: (team: String, keyID: String, path: String), caPath: String?, plan: StackPlan, in folder: String
    ) throws(CLIFailure) {
        var members = [
            JSONMember("teamId", .string(key.team)), JSONMember("keyId", .string(key.keyID)),
            JSONMember("keyPath", .string(key.path)),
            JSONMember("tls", .string(StackPlan.loopback(plan.apnsTLSPort))),
            JSONMember("h2c", .string(StackPlan.loopback(plan.apnsH2CPort))),
            JSONMember("gateway", .string(StackPlan.loopback(plan.gatewayPort))),
        ]
        if let caPath { members.append(JSONMember("ca", .string(caPath))) }
        do { try Files.write(JSONValue.object(members).serialized() + [0x0A], to: "\(folder)/provider.json") } catch {
            throw CLIFailure.local("cannot write \(error.description)")
        }
    }

    /// The CA of glimpse-activity's TLS endpoint, from its first lines.
    static func caPath(_ processes: StackProcesses, _ plan: StackPlan) -> String? {
        guard let member = plan.members.first(where: { $0.name == "glimpse-activity" }),
            let bytes = try? Files.read(processes.log(of: member))
        else { return nil }
        let marker = Array("(CA: ".utf8)
        guard
            let start = (0...max(0, bytes.count - marker.count)).first(where: {
                bytes[$0..<min(bytes.count, $0 + marker.count)].elementsEqual(marker)
            }),
            bytes.count >= start + marker.count
        else { return nil }
        return String(decoding: bytes[(start + marker.count)...].prefix { $0 != UInt8(ascii: ")") }, as: UTF8.self)
    }
}

struct Down: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stop a stack started with `glimpse up --detach`: its supervisor and everything the stack runs.")

    @Option(help: ArgumentHelp("The stack's directory.", valueName: "dir"))
    var dir = "./.glimpse"

    func run() async throws {
        guard StackRecord.read(from: dir) != nil else {
            Current.context.note("no stack is running from \(dir)")
            return
        }
        let (stopped, killed) = await Self.stop(dir)
        Current.context.note(
            "stopped \(stopped) processes" + (killed > 0 ? " (\(killed) killed after the grace period)" : ""))
    }

    /// Stops the supervisor first (so nothing is started again), then every process the
    /// stack runs: the recorded ones, and a member started again by hand on the stack's
    /// port from the stack's executables.
    static func stop(_ dir: String) async -> (stopped: Int, killed: Int) {
        guard let record = StackRecord.read(from: dir) else { return (0, 0) }
        if record.supervised, record.supervisor != getpid() {
            kill(record.supervisor, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(60)
            while Processes.alive(record.supervisor), ContinuousClock.now < deadline {
                _ = Processes.exited(record.supervisor)
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        var remaining = StackRecord.read(from: dir)?.running ?? []
        let known = Set(remaining.map(\.pid))
        for member in record.plan {
            for pid in PortOwners.pids(listeningOn: member.port)
            where !known.contains(pid) && Processes.commandLine(pid).hasPrefix(member.executable) {
                remaining.append(.init(name: member.name, pid: pid, port: member.port, executable: member.executable))
            }
        }
        let result = await StackProcesses.stop(remaining)
        _ = Files.remove(StackRecord.path(in: dir))
        return (max(result.stopped, record.processes.count), result.killed)
    }
}

/// `glimpse supervise`: the supervisor of a detached stack (`glimpse up --detach` starts it).
struct Supervise: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a detached stack's supervisor (started by `glimpse up --detach`).", shouldDisplay: false)

    @Option(help: ArgumentHelp("The stack's directory.", valueName: "dir"))
    var dir = "./.glimpse"

    func run() async throws {
        guard let record = StackRecord.read(from: dir), !record.plan.isEmpty else {
            throw CLIFailure.local("no stack plan in \(StackRecord.path(in: dir))")
        }
        StackSignals.install()
        defer { StackSignals.restore() }
        var supervisor = StackSupervisor(directory: dir, plan: record.plan, started: record.started)
        supervisor.say = { line in
            // Its standard output is its log file: each line is written out at once.
            let text = Array("\(Date().ISO8601Format()) \(line)\n".utf8)
            _ = text.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        }
        do { try supervisor.startAll() } catch {
            _ = await supervisor.stopAll()
            throw error
        }
        await supervisor.superviseUntilStopped()
        _ = await supervisor.stopAll()
    }
}
