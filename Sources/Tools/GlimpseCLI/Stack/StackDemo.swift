#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GlimpseMessages
import GlimpseRPC
import RPCCore

/// The demo device once the stack is up: each seed app installed (its token written where
/// its process reads it), its widgets placed, its Live Activities started by the app in the
/// foreground, as ActivityKit requires; then the screens printed and drawn. `glimpse up`
/// does it on loopback; `glimpse demo-setup` against a gateway elsewhere (a compose stack),
/// with each app's endpoints pointed at the address its process has there.
struct StackDemo {
    let directory: String
    let context: CLIContext
    var placed: [UInt64] = []
    /// The gateway the apps are installed at: `glimpse up`'s own on loopback by default.
    var gateway = HostPort(host: "127.0.0.1", port: StackPlan.gatewayPort)
    /// Where each app's token goes (`<name>.token`), for its process to read.
    var tokens: String
    /// By app name: the `host:port` every endpoint of its manifest is pointed at (the
    /// default, provider, handler and views endpoints); the manifest's own when absent.
    var endpoints: [String: String] = [:]
    /// Leaves an app that is installed already, with its token file there, as it is (so a
    /// setup that runs again does not place its widgets twice).
    var keepInstalled = false
    /// Until then, an app whose setup the gateway answered UNAVAILABLE (a service behind
    /// it not reachable yet, as while a compose stack starts) is set up again.
    var retryUnavailableUntil: ContinuousClock.Instant?

    init(directory: String, context: CLIContext) {
        self.directory = directory
        self.context = context
        tokens = "\(directory)/tokens"
    }

    mutating func setUp(_ device: DemoDevice) async throws {
        var installed: Set<String> = []
        if keepInstalled { installed = try await installedBundles() }
        for app in device.apps {
            var loaded: LoadedManifest
            do { loaded = try ManifestLoader.load(path: app.manifest) } catch {
                throw CLIFailure.local(error.description)
            }
            if let address = endpoints[app.name] { loaded.manifest = Self.pointing(loaded.manifest, at: address) }
            let tokenFile = "\(tokens)/\(app.name).token"
            if installed.contains(loaded.manifest.bundleId), Files.exists(tokenFile) {
                context.note("\(app.name): \(loaded.manifest.bundleId) is installed already; left as it is")
                Files.makePrivate(tokenFile)
                continue
            }
            let placedBefore = placed.count
            while true {
                do {
                    try await setUp(app, loaded, tokenFile: tokenFile)
                    break
                } catch let failure as CLIFailure {
                    // Install is all four services or none, and a new install replaces the
                    // app with its placements: the whole app is set up again.
                    guard case .gateway(code: .unavailable, let message) = failure,
                        let until = retryUnavailableUntil, ContinuousClock.now < until
                    else { throw failure }
                    context.note("\(app.name): UNAVAILABLE: \(message); trying again")
                    placed.removeSubrange(placedBefore...)
                    try await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    private mutating func setUp(_ app: DemoDevice.App, _ loaded: LoadedManifest, tokenFile: String) async throws {
        let gateway = self.gateway
        let installed = try await GatewayConnection.with(gateway) { gateway in
            try await gateway.apps.install(.init(message: loaded.installRequest)).message
        }
        do {
            try Files.writeSecret(installed.appToken, to: tokenFile)
        } catch { throw CLIFailure.local("cannot write \(error.description)") }
        for var place in app.widgets {
            place.bundleId = installed.bundleId
            let widget = try await GatewayConnection.with(gateway) { gateway in
                try await gateway.widgets.place(.init(message: place)).message
            }
            placed.append(widget.placementId)
        }
        guard !app.activities.isEmpty else { return }
        try await GatewayConnection.with(gateway, appToken: installed.appToken) { gateway in
            _ = try await gateway.appLifecycle.setState(
                gateway.request(GlimpseGatewayV1.SetAppStateRequest(bundleId: "", foreground: true)))
            let now =
                try await gateway.clock.now(.init(message: .init())).message.now.map {
                    Date(timeIntervalSince1970: Double($0.seconds) + Double($0.nanos) / 1e9)
                } ?? Date()
            for template in app.activities {
                var request = try DemoDevice.request(template, now: now)
                request.bundleId = installed.bundleId
                _ = try await gateway.activityKit.request(gateway.request(request))
            }
        }
    }

    private func installedBundles() async throws -> Set<String> {
        let listed = try await GatewayConnection.with(gateway) { gateway in
            try await gateway.apps.list(.init(message: GlimpseGatewayV1.ListAppsRequest())).message
        }
        return Set(listed.apps.map(\.bundleId))
    }

    /// The manifest with every endpoint it names (default, providers, intent handlers,
    /// Live Activity views) at `address`: a demo app is one process, wherever it runs.
    static func pointing(_ manifest: GlimpseAppV1.AppManifest, at address: String) -> GlimpseAppV1.AppManifest {
        var manifest = manifest
        manifest.defaultEndpoint = address
        for index in manifest.widgets.indices where !manifest.widgets[index].providerEndpoint.isEmpty {
            manifest.widgets[index].providerEndpoint = address
        }
        for index in manifest.intents.indices {
            if case .handlerEndpoint(let endpoint)? = manifest.intents[index].action, endpoint != "default" {
                manifest.intents[index].action = .handlerEndpoint(address)
            }
        }
        for index in manifest.activityAttributes.indices where !manifest.activityAttributes[index].viewsEndpoint.isEmpty
        {
            manifest.activityAttributes[index].viewsEndpoint = address
        }
        return manifest
    }

    /// Prints the Home Screen, the Lock Screen and the Dynamic Island as text and writes
    /// them (and each placed widget) as SVG, and PNG when rsvg-convert is there.
    func printScreens() async throws {
        let screens: [(String, GlimpseGatewayV1.RenderRequest.Target)] = [
            ("home", .homeScreen), ("lock", .lockScreen), ("island", .dynamicIsland),
        ]
        let png = Processes.which("rsvg-convert", path: context.environment["PATH"] ?? "/usr/bin:/bin") != nil
        try await GatewayConnection.with(gateway) { gateway in
            for (name, target) in screens {
                var request = GlimpseGatewayV1.RenderRequest()
                request.target = target
                request.text = true
                request.svg = true
                request.embedImages = true
                let rendering = try await gateway.device.render(.init(message: request)).message
                context.say(rendering.text)
                try write(rendering.svg, name: name, png: png)
            }
            for placement in placed {
                var request = GlimpseGatewayV1.RenderRequest()
                request.target = .widget
                request.placementId = placement
                request.svg = true
                request.embedImages = true
                let rendering = try await gateway.device.render(.init(message: request)).message
                try write(rendering.svg, name: "widget-\(placement)", png: png)
            }
        }
        if !png { context.note("PNG files need rsvg-convert (apt-get install librsvg2-bin); SVG files were written") }
    }

    private func write(_ svg: String, name: String, png: Bool) throws(CLIFailure) {
        try Pictures.write(svg: svg, to: "\(directory)/screens/\(name).svg")
        if png { try Pictures.writePNG(svg: svg, to: "\(directory)/screens/\(name).png") }
    }
}
