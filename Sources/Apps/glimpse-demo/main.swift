// glimpse-demo: one of the five seed apps as a running app process — what its widget
// extension implements (WidgetProvider, IntentHandler, ActivityConfiguration) on gRPC.
//
//     glimpse-demo <pixar|movieplanner|steps|rtlair|pizza> [--host 127.0.0.1] [--port N]
//                  [--gateway 127.0.0.1:7700] [--token-file PATH]
//     glimpse-demo list
//
// Every flag falls back to GLIMPSE_<FLAG>. Prints `listening on port N` once bound. The
// app token arrives after the process starts (install comes later): it is read from the
// token file when a call needs it. Manifests: Demos/<app>/app.json.
import ArgumentParser
import DemoApps
import GlimpseKit
import Foundation
import Logging
import ServiceKit
import ServiceLifecycle

@main
struct DemoMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse-demo",
        abstract: "A seed demo app: its widget provider, intent handler and Live Activity views.")

    @Argument(help: "The app (\(DemoApp.allCases.map(\.rawValue).joined(separator: ", "))), or `list`.")
    var app: String

    @Option(help: "Address to listen on (default 127.0.0.1; GLIMPSE_HOST).")
    var host: String?
    @Option(help: "Port to listen on (default the app's: pixar 7710 … pizza 7714; 0 picks a free one; GLIMPSE_PORT).")
    var port: String?
    @Option(help: "glimpse-gateway, for App Group reads (default 127.0.0.1:7700; GLIMPSE_GATEWAY).")
    var gateway: String?
    @Option(
        name: .customLong("token-file"),
        help: "The app token's file, written once the app is installed (GLIMPSE_TOKEN_FILE).")
    var tokenFile: String?
    @Option(name: .customLong("log-level"), help: "trace … critical (default info; GLIMPSE_LOG_LEVEL).")
    var logLevel: String?

    func run() async throws {
        if app == "list" {
            for demo in DemoApp.allCases {
                print(
                    "\(demo.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(demo.defaultPort)  \(demo.bundleID)  \(demo.summary)"
                )
            }
            return
        }
        guard let demo = DemoApp(rawValue: app) else {
            throw ValidationError(
                "unknown app \"\(app)\": one of \(DemoApp.allCases.map(\.rawValue).joined(separator: ", ")), or list")
        }
        let source = ConfigSource(environment: ProcessInfo.processInfo.environment)
        var config = ServiceConfig.defaults(service: "demo-\(demo.rawValue)")
        config.host = try source.value("host", host, expected: "a host name or address", default: "127.0.0.1") {
            $0.isEmpty || $0.contains(where: \.isWhitespace) ? nil : $0
        }
        config.port = try source.value("port", port, expected: "a port number 0...65535", default: demo.defaultPort) {
            Int($0).flatMap { (0...65535).contains($0) ? $0 : nil }
        }
        config.logLevel = try source.value(
            "log-level", logLevel, expected: "trace, debug, info, notice, warning, error or critical",
            default: .info
        ) { .init(rawValue: $0.lowercased()) }
        config.shutdownGrace = .seconds(5)
        let gatewayAddress =
            try source.optionalAddress("gateway", gateway) ?? ServiceAddress(host: "127.0.0.1", port: 7700)
        let token = AppToken(path: source.raw("token-file", tokenFile)?.value)
        let logger = ServiceLogging.bootstrap(config)

        let link =
            demo.usesGateway ? GatewayLink(host: gatewayAddress.host, port: gatewayAddress.port, token: token) : nil
        var runner = ServiceRunner(
            config: config, logger: logger, services: demo.services(gateway: link),
            serviceNames: demo.serviceNames, descriptors: DemoApp.descriptors)
        runner.servesDeviceScope = false  // an app's provider: Glimpse's services call it, as a phone calls an app
        if let link { runner.addBackground(GatewayLinkService(link: link)) }
        runner.markReady()
        try await runner.run()
    }
}

/// The gateway client for the length of the process.
struct GatewayLinkService: Service {
    let link: GatewayLink

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await link.run()
        } onGracefulShutdown: {
            link.shutdown()
        }
    }
}
