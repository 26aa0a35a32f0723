import ArgumentParser
import GlimpseJSON
import GlimpseMessages
import GlimpseVocabulary
import RPCCore

/// `glimpse fleet`: many devices from one template, driven through a day on their manual
/// clocks, the load they made reported — for a team that points the fleet's apps at its own
/// widget provider, or its push server at the fleet's Live Activities.
struct Fleet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Create many devices from a template, drive them through a day on their manual clocks, report the load.",
        discussion: """
            Creates <prefix>-00001 … at the gateway (one left from an earlier run is deleted \
            first), and on each installs the template's apps (Demos/device.json's format; \
            --app points an app's endpoints at your provider), places their widgets and starts \
            their Live Activities (--activities times). Then every device's clock advances by --step until --day \
            has passed, a device's steps one after another and --concurrency devices at once; \
            every --tap-every, each widget the template gives a "tap" is tapped. Placements \
            reload under the budgets as on a phone, so the calls your provider sees are the \
            calls a fleet of that size makes in that day.

            Reports devices, setup time, Clock.Advance calls/s and p50/p99, taps, the provider \
            calls the fleet's event logs record (answered and failed) per second of the run, \
            and deletion time (--keep leaves the devices). --push-paths FILE writes each Live \
            Activity's /3/device/<token>, one per line, for a push server or `h2load -i`.

            The stack must run on manual clocks (`glimpse up --manual <instant>`) and hold \
            the devices (`--max-devices` at every process, 250 by default).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many devices.")
    var devices = 100

    @Option(
        help: ArgumentHelp(
            "The device template (default: Demos/device.json here or beside the build).", valueName: "file"))
    var template: String?

    @OptionGroup var apps: AppEndpointOptions

    @Option(
        name: .customLong("port-offset"),
        help: ArgumentHelp(
            "Added to the template's app ports (the stack's `glimpse up --port-offset`).", valueName: "n"))
    var portOffset = 0

    @Option(help: ArgumentHelp("How much device time the fleet goes through.", valueName: "duration"))
    var day = "24h"

    @Option(help: ArgumentHelp("Each Clock.Advance.", valueName: "duration"))
    var step = "15m"

    @Option(
        name: .customLong("tap-every"),
        help: ArgumentHelp(
            "How often each widget with a \"tap\" in the template is tapped (0: never).", valueName: "duration"))
    var tapEvery = "1h"

    @Option(help: ArgumentHelp("Devices driven at once.", valueName: "n"))
    var concurrency = 32

    @Option(
        help: ArgumentHelp(
            "Each app starts its template's Live Activities this many times (past 5 per app: glimpse-activity's --max-activities-per-app).",
            valueName: "n"))
    var activities = 1

    @Option(help: ArgumentHelp("Device ids are <prefix>-00001, <prefix>-00002, …", valueName: "prefix"))
    var prefix = "fleet"

    @Option(
        name: .customLong("push-paths"),
        help: ArgumentHelp("Write each Live Activity's /3/device/<token> here, one per line.", valueName: "file"))
    var pushPaths: String?

    @Flag(help: "Leave the devices at the gateway when done.")
    var keep = false

    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        guard (1...100_000).contains(devices) else { throw ValidationError("--devices: 1 to 100000") }
        guard (1...1024).contains(concurrency) else { throw ValidationError("--concurrency: 1 to 1024") }
        guard (0...1000).contains(activities) else { throw ValidationError("--activities: 0 to 1000") }
        guard DeviceScope.problem(with: "\(prefix)-00001", field: "--prefix", defaultAllowed: false) == nil,
            prefix.utf8.count <= 50
        else { throw ValidationError("--prefix: up to 50 of a-z, 0-9 and -, starting with a letter or digit") }
    }

    func run() async throws {
        let context = global.context
        guard context.deviceID == nil else {
            throw CLIFailure.usage("--device-id / GLIMPSE_DEVICE_ID: the fleet names its own devices (--prefix)")
        }
        let gateway = try global.address()
        let plan = try plan()
        let fleet = FleetRun(
            gateway: gateway, plan: plan, concurrency: concurrency,
            progress: ProgressLine(context: context, forced: progress.progress))
        let report = try await fleet.run(keep: keep, pushPaths: pushPaths)
        if global.json {
            global.emitJSON(report.json)
        } else {
            context.say(report.text)
        }
        if report.failedAdvances > 0 {
            throw CLIFailure.local(
                "\(report.failedAdvances) Clock.Advance calls failed; the first: \(report.firstFailure ?? "?")")
        }
    }

    func plan() throws(CLIFailure) -> FleetPlan {
        func seconds(_ text: String, _ option: String) throws(CLIFailure) -> Double {
            do { return try DurationText.parse(text) } catch { throw .usage("\(option): \(error.description)") }
        }
        let day = try seconds(day, "--day")
        let step = try seconds(step, "--step")
        let tapEvery = try seconds(tapEvery, "--tap-every")
        guard step > 0, day >= step else { throw .usage("--step: more than 0 and at most --day") }
        let device = try DemoDevice.load(template ?? Up.defaultDemoFile(binaries: Up.ownFolder()))
        let endpoints = try device.endpoints(self.apps.specs)
        var apps: [FleetPlan.App] = []
        for app in device.apps {
            var loaded: LoadedManifest
            do { loaded = try ManifestLoader.load(path: app.manifest) } catch { throw .local(error.description) }
            if let address = endpoints[app.name] ?? (portOffset != 0 ? "127.0.0.1:\(app.port + portOffset)" : nil) {
                loaded.manifest = StackDemo.pointing(loaded.manifest, at: address)
            }
            apps.append(FleetPlan.App(template: app, install: loaded.installRequest))
        }
        let width = max(5, String(devices).count)
        let ids = (1...devices).map { number in
            let digits = String(number)
            return "\(prefix)-" + String(repeating: "0", count: width - digits.count) + digits
        }
        return FleetPlan(
            devices: ids, apps: apps, activityCopies: activities, steps: Int((day / step).rounded(.down)), step: step,
            tapEverySteps: tapEvery > 0 ? max(1, Int((tapEvery / step).rounded())) : 0)
    }
}

/// What `glimpse fleet` does to each device.
struct FleetPlan: Sendable {
    struct App: Sendable {
        var template: DemoDevice.App
        var install: GlimpseGatewayV1.InstallRequest
    }

    var devices: [String]
    var apps: [App]
    /// How many times each app starts its template's Live Activities.
    var activityCopies = 1
    /// Clock.Advance calls per device, each by `step` seconds.
    var steps: Int
    var step: Double
    /// Taps after every this many steps (0: none).
    var tapEverySteps: Int
}
