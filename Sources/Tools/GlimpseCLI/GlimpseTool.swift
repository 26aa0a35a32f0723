import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RPCCore

/// The `glimpse` command-line tool: drives glimpse-gateway, the device.
///
///     let status = await GlimpseTool.run(arguments: ["widgets", "--json"], output: captured, errorOutput: errors)
///
/// Exit statuses: 0 ok, 1 the gateway answered an error (`error: <CODE>: <message>` on
/// standard error), 2 a usage error, 3 the gateway is unreachable.
package enum GlimpseTool {
    /// Runs one command line (without the program name) and returns its exit status.
    /// `environment` supplies GLIMPSE_GATEWAY and GLIMPSE_APP_TOKEN; progress lines go to
    /// `errorOutput` when `errorIsTerminal` (or with `--progress`).
    package static func run(
        arguments: [String], output: any TextOutput, errorOutput: any TextOutput,
        environment: [String: String] = [:], errorIsTerminal: Bool = false
    ) async -> Int32 {
        let context = CLIContext(
            output: output, errorOutput: errorOutput, environment: environment, errorIsTerminal: errorIsTerminal)
        return await Current.$context.withValue(context) {
            await execute(arguments, context)
        }
    }

    /// The executable's entry: the process's arguments, environment and descriptors.
    package static func main() async -> Int32 {
        await run(
            arguments: Array(CommandLine.arguments.dropFirst()),
            output: FileDescriptorOutput.standardOutput, errorOutput: FileDescriptorOutput.standardError,
            environment: ProcessInfo.processInfo.environment,
            errorIsTerminal: FileDescriptorOutput.standardError.isTerminal)
    }

    private static func execute(_ arguments: [String], _ context: CLIContext) async -> Int32 {
        do {
            var command = try GlimpseCommand.parseAsRoot(arguments)
            var keyed = context
            keyed.deviceKey = try DeviceKeyOption.resolve(command, context)
            keyed.deviceID = try DeviceIDOption.resolve(command, context)
            try await Current.$context.withValue(keyed) {
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
            return 0
        } catch {
            return report(error, context)
        }
    }

    /// The exit status for `error`, after writing its message where it belongs.
    static func report(_ error: any Error, _ context: CLIContext) -> Int32 {
        let (status, message, toOutput) = outcome(of: error)
        if !message.isEmpty {
            if toOutput { context.say(message) } else { context.note(message) }
        }
        return status
    }

    /// What ends a run: the exit status, the message, and whether it goes to standard
    /// output (help) rather than standard error.
    package static func outcome(of error: any Error) -> (status: Int32, message: String, toOutput: Bool) {
        switch error {
        case let failure as CLIFailure:
            return (failure.exitCode, failure.description, false)
        case let rpc as RPCError:
            let failure = CLIFailure(rpc, gateway: "the gateway")
            return (failure.exitCode, failure.description, false)
        default:
            break
        }
        let code = GlimpseCommand.exitCode(for: error)
        let message = GlimpseCommand.fullMessage(for: error)
        if code == .success { return (0, message, true) }
        if code == .validationFailure { return (CLIFailure.usageStatus, message, false) }
        // Anything else thrown on the way (not the gateway's answer, not usage).
        let text = message.hasPrefix("Error: ") ? "error: " + message.dropFirst("Error: ".count) : "error: \(message)"
        return (CLIFailure.gatewayErrorStatus, text, false)
    }
}

/// `glimpse`: the root command.
struct GlimpseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse",
        abstract: "Drive glimpse-gateway, the device: apps, widgets, the clock, Live Activities, pushes and events.",
        discussion: """
            Every command takes --gateway host:port (default: $GLIMPSE_GATEWAY, else 127.0.0.1:7700) \
            and --json (the gateway's answer as proto3 JSON, one object per line).

            Exit status: 0 ok, 1 the gateway answered an error (error: <CODE>: <message> on \
            standard error), 2 a usage error, 3 the gateway could not be reached.
            """,
        subcommands: [
            Install.self, Uninstall.self, Apps.self, DevicesCommand.self,
            Place.self, Remove.self, Widgets.self, Gallery.self, Show.self, Tap.self, Reload.self, Budget.self,
            ClockCommand.self, Activities.self, TapActivity.self, Push.self, Events.self, SettingsCommand.self,
            Reset.self,
            Export.self, ImportCommand.self, AppCommand.self, Render.self, Up.self, Down.self, Status.self,
            Restart.self, Supervise.self,
            HealthCheck.self, DemoSetup.self, DeviceKeyCommand.self, Fleet.self,
            Verify.self,
            ContractsCommand.self,
        ])
}
