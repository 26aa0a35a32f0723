import ArgumentParser
import RPCCore
import ServiceKit

/// `--device-key FILE`: in every command's `GlobalOptions`, and in commands that call the
/// services themselves (`contracts verify`).
struct DeviceKeyOptions: ParsableArguments {
    @Option(
        name: .customLong("device-key"),
        help: ArgumentHelp(
            "A file holding the stack's device key, sent as `authorization: Device <key>` on device calls (default: $GLIMPSE_DEVICE_KEY; a stack on loopback needs none).",
            valueName: "file"))
    var deviceKey: String?

    @Option(
        name: .customLong("device-id"),
        help: ArgumentHelp(
            "The device the command is for, on a gateway that holds several (`glimpse devices`): sent as `glimpse-device` (default: $GLIMPSE_DEVICE_ID, else the default device).",
            valueName: "id"))
    var deviceID: String?
}

/// The device a command's calls name: its `--device-id`, else `GLIMPSE_DEVICE_ID`, else none
/// (the default device).
enum DeviceIDOption {
    static func resolve(_ command: any ParsableCommand, _ context: CLIContext) throws(CLIFailure) -> String? {
        let found = DeviceKeyOptions.value(in: command, context, \.deviceID, "--device-id", "GLIMPSE_DEVICE_ID")
        guard let (id, origin) = found else { return nil }
        if let problem = DeviceScope.problem(with: id, field: origin) { throw .usage(problem) }
        return id == DeviceScope.defaultID ? nil : id
    }
}

/// The device key a command sends: its `--device-key FILE`, else `GLIMPSE_DEVICE_KEY` (the
/// same variable the services read, so one `export` serves a whole compose host).
enum DeviceKeyOption {
    static func resolve(_ command: any ParsableCommand, _ context: CLIContext) throws(CLIFailure) -> DeviceKey? {
        let found = DeviceKeyOptions.value(in: command, context, \.deviceKey, "--device-key", "GLIMPSE_DEVICE_KEY")
        guard let (path, origin) = found else { return nil }
        switch DeviceKey.load(path: path) {
        case .success(let key): return key
        case .failure(.unreadable): throw .usage("\(origin): cannot read \(path)")
        case .failure(.malformed):
            throw .usage("\(origin): \(path) holds no device key (16 to 1,024 visible ASCII characters without spaces)")
        }
    }
}

extension DeviceKeyOptions {
    /// One of these options of `command` (in its `GlobalOptions`, or its own group), else
    /// the environment's `variable`; with the name of where it came from, for messages.
    static func value(
        in command: any ParsableCommand, _ context: CLIContext, _ option: KeyPath<DeviceKeyOptions, String?>,
        _ flagName: String, _ variable: String
    ) -> (String, String)? {
        // Read the option group generically rather than list every command here.
        let flag = Mirror(reflecting: command).children.lazy.compactMap { child -> String? in
            if let global = child.value as? OptionGroup<GlobalOptions> {
                return global.wrappedValue.credentials[keyPath: option]
            }
            return (child.value as? OptionGroup<DeviceKeyOptions>)?.wrappedValue[keyPath: option]
        }.first
        if let flag { return (flag, flagName) }
        if let value = context.environment[variable], !value.isEmpty { return (value, variable) }
        return nil
    }
}
