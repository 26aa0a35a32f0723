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

    @Option(help: ArgumentHelp("The folder with the executables (default: the one glimpse runs from).", valueName: "dir"))
    var bin: String?

    @Option(help: ArgumentHelp("The demo device file (default: Demos/device.json beside the build).", valueName: "file"))
    var demos: String?

    @Flag(name: .customLong("no-demos"), help: "Only the five executables: no demo apps.")
    var noDemos = false

    @Flag(help: "Return once the stack is up (stop it with `glimpse down`).")
    var detach = false

    @Option(help: ArgumentHelp("Manual clocks from this instant (ISO 8601); the gateway conducts and follows real time.", valueName: "instant"))
    var manual: String?

    @Option(help: "The screen model (iPhone393x852, iPhone430x932, iPhone375x812, iPhone375x667, iPad1024x1366).")
    var device: String?

    @Option(name: .customLong("port-offset"), help: ArgumentHelp(
        "Added to every port (gateway 7700, services 7701-7704, demo apps 7710-7714, APNs 7443/7444), to run beside another stack.",
        valueName: "n"))
    var portOffset = 0

    func validate() throws {
        guard (0...StackPlan.largestPortOffset).contains(portOffset) else {
            throw ValidationError("--port-offset must be 0...\(StackPlan.largestPortOffset) (every port stays at or under 65535)")
        }
    }

    var context: CLIContext { Current.context }

    func run() async throws {
        let began = ContinuousClock.now
        try Self.refuseIfRunning(dir)
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
        options.device = device
        options.apnsKey = key
        options.portOffset = portOffset
        options.demoApps = demoDevice?.apps.map { StackPlan.DemoApp(name: $0.name, port: $0.port) } ?? []
        let plan = StackPlan(options)
        try Self.refuseTakenPorts(plan)

        StackSignals.install()
        defer { StackSignals.restore() }
        var processes = StackProcesses(directory: dir)
        var record = StackRecord(processes: [], started: Date().ISO8601Format())
        do {
            try processes.start(plan, record: &record)
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
            context.note("glimpse up: \(plan.members.count) processes up and the first screens drawn in \(StackText.seconds(elapsed))")
        } catch {
            context.note("glimpse up: stopping what started")
            _ = await StackProcesses.stop(record.processes)
            Files.remove(StackRecord.path(in: dir))
            throw error
        }
        if detach {
            context.note("detached: `glimpse down\(dir == "./.glimpse" ? "" : " --dir \(dir)")` stops it")
            return
        }
        context.note("running; Ctrl-C stops everything")
        let ended = await StackSignals.waitForStopOrExit(processes)
        if let (member, status) = ended {
            context.note("\(member.name) exited (status \(status)):\n\(processes.tail(of: member))")
        }
        context.note("glimpse up: stopping")
        let (stopped, killed) = await StackProcesses.stop(record.processes)
        Files.remove(StackRecord.path(in: dir))
        context.note("stopped \(stopped) processes" + (killed > 0 ? " (\(killed) killed after the grace period)" : ""))
        if ended != nil { throw CLIFailure.local("the stack stopped because a process exited") }
    }

    static func refuseIfRunning(_ dir: String) throws(CLIFailure) {
        guard let record = StackRecord.read(from: dir) else { return }
        let running = record.running
        guard running.isEmpty else {
            let names = running.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
            throw CLIFailure.local("a stack is already running from \(dir), started \(record.started): \(names). `glimpse down\(dir == "./.glimpse" ? "" : " --dir \(dir)")` stops it")
        }
        Files.remove(StackRecord.path(in: dir))
    }

    static func refuseTakenPorts(_ plan: StackPlan) throws(CLIFailure) {
        let ports = plan.members.map(\.port) + [plan.apnsTLSPort, plan.apnsH2CPort]
        let taken = ports.filter(Ports.inUse)
        guard taken.isEmpty else {
            throw CLIFailure.local("port(s) \(taken.map(String.init).joined(separator: ", ")) on 127.0.0.1 are taken: another stack (see `glimpse down --dir …`) or another program holds them; --port-offset N moves every port")
        }
    }

    /// The folder of the running executable (where SwiftPM put its siblings).
    static func ownFolder() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "." }
        return Files.directory(of: String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
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
            do { try Files.writeSecret(pem, to: path) } catch { throw CLIFailure.local("cannot write \(error.description)") }
        }
        return (team, keyID, path)
    }

    /// `<dir>/apns/provider.json`: what a push server needs to reach this stack's APNs
    /// endpoint (Demos/pizza/push_server.py reads it).
    static func writeProvider(key: (team: String, keyID: String, path: String), caPath: String?, plan: StackPlan, in folder: String) throws(CLIFailure) {
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
              let bytes = try? Files.read(processes.log(of: member)) else { return nil }
        let marker = Array("(CA: ".utf8)
        guard let start = (0...max(0, bytes.count - marker.count)).first(where: { bytes[$0..<min(bytes.count, $0 + marker.count)].elementsEqual(marker) }),
              bytes.count >= start + marker.count else { return nil }
        return String(decoding: bytes[(start + marker.count)...].prefix { $0 != UInt8(ascii: ")") }, as: UTF8.self)
    }
}

struct Down: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stop a stack started with `glimpse up --detach`.")

    @Option(help: ArgumentHelp("The stack's directory.", valueName: "dir"))
    var dir = "./.glimpse"

    func run() async throws {
        guard let record = StackRecord.read(from: dir) else {
            Current.context.note("no stack is running from \(dir)")
            return
        }
        let running = record.running
        let (stopped, killed) = await StackProcesses.stop(running)
        Files.remove(StackRecord.path(in: dir))
        Current.context.note("stopped \(stopped) processes" + (killed > 0 ? " (\(killed) killed after the grace period)" : ""))
    }
}
