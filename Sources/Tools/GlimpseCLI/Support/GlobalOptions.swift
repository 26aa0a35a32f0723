import ArgumentParser
import GlimpseJSON
import GlimpseMessages

/// The options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "glimpse-gateway's address (default: $GLIMPSE_GATEWAY, else 127.0.0.1:7700).", valueName: "host:port"))
    var gateway: String?

    @Flag(help: "Print the gateway's answer as proto3 JSON, one object per line.")
    var json = false

    @OptionGroup var credentials: DeviceKeyOptions

    static let defaultGateway = "127.0.0.1:7700"

    var context: CLIContext { Current.context }

    func address() throws(CLIFailure) -> HostPort {
        if let gateway { return try HostPort(parsing: gateway, what: "--gateway") }
        if let fromEnvironment = context.environment["GLIMPSE_GATEWAY"], !fromEnvironment.isEmpty {
            return try HostPort(parsing: fromEnvironment, what: "GLIMPSE_GATEWAY")
        }
        return try HostPort(parsing: Self.defaultGateway, what: "--gateway")
    }

    /// Runs `body` with a connection to the gateway.
    func withGateway<Result: Sendable>(
        appToken: String? = nil, _ body: (GatewayConnection) async throws -> Result
    ) async throws -> Result {
        try await GatewayConnection.with(try address(), appToken: appToken, body)
    }

    /// Prints `message`: its proto3 JSON with --json, else `human(message)`.
    func emit<Message: ProtoJSONMessage>(_ message: Message, _ human: (Message) -> String) {
        if json {
            context.say(String(decoding: message.jsonBytes(), as: UTF8.self))
        } else {
            let text = human(message)
            if !text.isEmpty { context.say(text) }
        }
    }

    /// Prints a JSON value built here (answers that are not one gateway message).
    func emitJSON(_ value: JSONValue) {
        context.say(String(decoding: value.serialized(), as: UTF8.self))
    }
}

/// Options for commands that report progress on long work.
struct ProgressOptions: ParsableArguments {
    @Flag(help: "Print progress lines on standard error even when it is not a terminal.")
    var progress = false
}

/// A progress line on standard error: rewritten in place on a terminal, one line per
/// step with `--progress` elsewhere, nothing otherwise.
struct ProgressLine {
    let context: CLIContext
    let enabled: Bool
    let inPlace: Bool

    init(context: CLIContext, forced: Bool) {
        self.context = context
        enabled = forced || context.errorIsTerminal
        inPlace = context.errorIsTerminal
    }

    func update(_ text: String) {
        guard enabled else { return }
        if inPlace {
            context.errorOutput.write("\r\u{1B}[K" + text)
        } else {
            context.errorOutput.write(text + "\n")
        }
    }

    func finish() {
        if enabled, inPlace { context.errorOutput.write("\n") }
    }
}
