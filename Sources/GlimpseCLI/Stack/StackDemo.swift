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
/// foreground, as ActivityKit requires; then the screens printed and drawn.
struct StackDemo {
    let directory: String
    let context: CLIContext
    var placed: [UInt64] = []
    static let gateway = HostPort(host: "127.0.0.1", port: StackPlan.gatewayPort)

    init(directory: String, context: CLIContext) {
        self.directory = directory
        self.context = context
    }

    mutating func setUp(_ device: DemoDevice) async throws {
        for app in device.apps {
            let loaded: LoadedManifest
            do { loaded = try ManifestLoader.load(path: app.manifest) } catch { throw CLIFailure.local(error.description) }
            let installed = try await GatewayConnection.with(Self.gateway) { gateway in
                try await gateway.apps.install(.init(message: loaded.installRequest)).message
            }
            do {
                try Files.write(Array(installed.appToken.utf8), to: "\(directory)/tokens/\(app.name).token")
            } catch { throw CLIFailure.local("cannot write \(error.description)") }
            for var place in app.widgets {
                place.bundleId = installed.bundleId
                let widget = try await GatewayConnection.with(Self.gateway) { gateway in
                    try await gateway.widgets.place(.init(message: place)).message
                }
                placed.append(widget.placementId)
            }
            guard !app.activities.isEmpty else { continue }
            try await GatewayConnection.with(Self.gateway, appToken: installed.appToken) { gateway in
                _ = try await gateway.appLifecycle.setState(gateway.request(GlimpseGatewayV1.SetAppStateRequest(bundleId: "", foreground: true)))
                let now = try await gateway.clock.now(.init(message: .init())).message.now.map {
                    Date(timeIntervalSince1970: Double($0.seconds) + Double($0.nanos) / 1e9)
                } ?? Date()
                for template in app.activities {
                    var request = try DemoDevice.request(template, now: now)
                    request.bundleId = installed.bundleId
                    _ = try await gateway.activityKit.request(gateway.request(request))
                }
            }
        }
    }

    /// Prints the Home Screen, the Lock Screen and the Dynamic Island as text and writes
    /// them (and each placed widget) as SVG, and PNG when rsvg-convert is there.
    func printScreens() async throws {
        let screens: [(String, GlimpseGatewayV1.RenderRequest.Target)] = [
            ("home", .homeScreen), ("lock", .lockScreen), ("island", .dynamicIsland),
        ]
        let png = Processes.which("rsvg-convert", path: context.environment["PATH"] ?? "/usr/bin:/bin") != nil
        try await GatewayConnection.with(Self.gateway) { gateway in
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
