import ArgumentParser
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
}

/// The device key a command sends: its `--device-key FILE`, else `GLIMPSE_DEVICE_KEY` (the
/// same variable the services read, so one `export` serves a whole compose host).
enum DeviceKeyOption {
    static func resolve(_ command: any ParsableCommand, _ context: CLIContext) throws(CLIFailure) -> DeviceKey? {
        // Read the option group generically rather than list every command here.
        let flag = Mirror(reflecting: command).children.lazy.compactMap { child -> String? in
            if let global = child.value as? OptionGroup<GlobalOptions> {
                return global.wrappedValue.credentials.deviceKey
            }
            return (child.value as? OptionGroup<DeviceKeyOptions>)?.wrappedValue.deviceKey
        }.first
        let (path, origin): (String, String)
        if let flag {
            (path, origin) = (flag, "--device-key")
        } else if let variable = context.environment["GLIMPSE_DEVICE_KEY"], !variable.isEmpty {
            (path, origin) = (variable, "GLIMPSE_DEVICE_KEY")
        } else {
            return nil
        }
        switch DeviceKey.load(path: path) {
        case .success(let key): return key
        case .failure(.unreadable): throw .usage("\(origin): cannot read \(path)")
        case .failure(.malformed):
            throw .usage("\(origin): \(path) holds no device key (16 to 1,024 visible ASCII characters without spaces)")
        }
    }
}
