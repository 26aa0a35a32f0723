import ArgumentParser
import GlimpseMessages
import GlimpseRPC
import RPCCore

struct Install: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Install an app from its manifest (app.json or app.yaml); prints the app token.",
        discussion: """
            JSON is the proto3 JSON of glimpse.app.v1.AppManifest; YAML is the same document \
            in YAML. Each declared asset's `path` is read relative to the manifest's directory \
            and sent with the manifest. Installing an installed bundle replaces it (its \
            placements and activities go). The token goes to standard output, a summary to \
            standard error.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The app's manifest.", valueName: "app.json|app.yaml"))
    var manifest: String

    func run() async throws {
        let loaded: LoadedManifest
        do { loaded = try ManifestLoader.load(path: manifest) } catch { throw CLIFailure.usage(error.description) }
        let request = loaded.installRequest
        let response = try await global.withGateway { gateway in
            try await gateway.apps.install(.init(message: request)).message
        }
        if global.json {
            global.emit(response) { _ in "" }
        } else {
            global.context.note(AppText.installed(response))
            global.context.say(response.appToken)
        }
    }
}

struct Uninstall: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Uninstall an app (its placements and Live Activities go with it).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The app's bundle id.", valueName: "bundle"))
    var bundle: String

    func run() async throws {
        let response = try await global.withGateway { gateway in
            try await gateway.apps.uninstall(.init(message: GlimpseGatewayV1.UninstallRequest(bundleId: bundle)))
                .message
        }
        global.emit(response) { AppText.uninstalled(bundle, $0) }
    }
}

struct Apps: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the installed apps.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let response = try await global.withGateway { gateway in
            try await gateway.apps.list(.init(message: GlimpseGatewayV1.ListAppsRequest())).message
        }
        global.emit(response) { AppText.list($0.apps) }
    }
}

struct Reset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Uninstall every app and put the settings back to their defaults.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let response = try await global.withGateway { gateway in
            try await gateway.device.reset(.init(message: GlimpseGatewayV1.ResetRequest())).message
        }
        global.emit(response) { "reset: uninstalled \(AppText.count($0.uninstalledApps, "app"))" }
    }
}
