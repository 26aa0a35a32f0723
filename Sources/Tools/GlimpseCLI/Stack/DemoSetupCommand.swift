import ArgumentParser
import GlimpseJSON
import GlimpseMessages
import GlimpseRPC
import RPCCore
import GlimpseVocabulary

/// `glimpse demo-setup`: what `glimpse up` does once its processes listen — install the
/// seed apps of Demos/device.json, write their tokens, place their widgets, start their
/// Live Activities — against a gateway and demo apps that run elsewhere (a compose stack:
/// `--app rtlair=demo-rtlair:7713` points the app's manifest at its container). An app
/// that is installed already, with its token file there, is left as it is, so running it
/// again changes nothing.
struct DemoSetup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-setup",
        abstract:
            "Install the seed demo apps, place their widgets and start their Live Activities at a running gateway.",
        discussion: """
            Does what `glimpse up` does after its processes start, for a stack started some \
            other way (deploy/compose.yaml runs it as its `setup` container). Each app's token \
            goes to <tokens>/<name>.token, where its glimpse-demo process reads it \
            (--token-file). An app installed already whose token file exists is skipped \
            (--reinstall installs it again: new token, its widgets placed again).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "The demo device file (default: Demos/device.json here or beside the build).", valueName: "file"))
    var demos: String?

    @Option(help: ArgumentHelp("Where the apps' token files go.", valueName: "dir"))
    var tokens = "./.glimpse/tokens"

    @OptionGroup var apps: AppEndpointOptions

    @Option(
        help: ArgumentHelp(
            "How long to wait for the gateway, and for the services behind it (an install answered UNAVAILABLE is tried again), before giving up.",
            valueName: "duration"))
    var wait = "60s"

    @Flag(help: "Install apps that are installed already again (new tokens; their widgets placed again).")
    var reinstall = false

    func run() async throws {
        // Usage errors (exit 2) before anything is called.
        let context = global.context
        let gateway = try global.address()
        let waiting: Double
        do { waiting = try DurationText.parse(wait) } catch { throw CLIFailure.usage("--wait: \(error.description)") }
        let device = try DemoDevice.load(demos ?? Up.defaultDemoFile(binaries: Up.ownFolder()))
        let endpoints = try device.endpoints(apps.specs)
        do { try Files.makePrivateDirectory(tokens) } catch {
            throw CLIFailure.local("cannot make \(error.description)")
        }
        let until = ContinuousClock.now + .milliseconds(Int64(waiting * 1000))
        try await Self.waitForGateway(gateway, until: until)

        var setup = StackDemo(directory: Files.directory(of: tokens), context: context)
        setup.gateway = gateway
        setup.tokens = tokens
        setup.endpoints = endpoints
        setup.keepInstalled = !reinstall
        setup.retryUnavailableUntil = until
        try await setup.setUp(device)
        let activities = try await GatewayConnection.with(gateway) { gateway in
            try await gateway.activities.list(.init(message: GlimpseGatewayV1.ListActivitiesRequest())).message
        }
        if global.json {
            global.emitJSON(
                .object([
                    JSONMember("apps", .array(device.apps.map { .string($0.name) })),
                    JSONMember("placed", .array(setup.placed.map { .string(String($0)) })),
                    JSONMember("activities", .number(Double(activities.activities.count))),
                ]))
        } else {
            context.say(
                "demo-setup: \(device.apps.count) apps at \(gateway), \(setup.placed.count) widgets placed now, "
                    + "\(activities.activities.count) Live Activities on the device; tokens in \(tokens)")
        }
    }

    /// Retries Clock.Now until the gateway answers (it may still be starting).
    static func waitForGateway(_ gateway: HostPort, until deadline: ContinuousClock.Instant) async throws {
        while true {
            do {
                _ = try await GatewayConnection.with(gateway, connectTimeout: .seconds(2)) { gateway in
                    try await gateway.clock.now(.init(message: .init())).message
                }
                return
            } catch let failure as CLIFailure where failure.exitCode == CLIFailure.unreachableStatus {
                guard ContinuousClock.now < deadline else { throw failure }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }
}
