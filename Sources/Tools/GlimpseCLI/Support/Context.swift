import ServiceKit

/// What a command run writes to and reads its defaults from: set per run by
/// `GlimpseTool.run`, so commands (ArgumentParser values) need no globals.
struct CLIContext: Sendable {
    var output: any TextOutput
    var errorOutput: any TextOutput
    var environment: [String: String]
    /// Progress lines go to standard error when it is a terminal (or with `--progress`).
    var errorIsTerminal: Bool
    /// Sent on every call that carries no app token (`--device-key`, `GLIMPSE_DEVICE_KEY`).
    var deviceKey: DeviceKey?
    /// The device every call names (`--device-id`, `GLIMPSE_DEVICE_ID`); nil: the default.
    var deviceID: String?

    static let standard = CLIContext(
        output: FileDescriptorOutput.standardOutput, errorOutput: FileDescriptorOutput.standardError,
        environment: [:], errorIsTerminal: false)

    /// Writes `text` and a newline to standard output (unless `text` already ends with one).
    func say(_ text: String) {
        output.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Writes a line to standard error.
    func note(_ text: String) {
        errorOutput.write(text.hasSuffix("\n") ? text : text + "\n")
    }
}

enum Current {
    @TaskLocal static var context: CLIContext = .standard
}
